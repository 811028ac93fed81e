"""./lab memory: what a parked platform or virtual thread costs."""
