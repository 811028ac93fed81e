"""./lab soak: does a server survive overload?"""
