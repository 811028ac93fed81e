package dev.loomlab.micro.memory;

/**
 * The memory lines of {@code /proc/<pid>/status} that tell what threads cost, in KiB:
 * VmPeak (largest virtual size: reserved, mostly untouched stacks), VmSize (virtual size now),
 * VmHWM (largest resident set), VmRSS (resident set now), and the kernel's thread count.
 */
public record ProcessMemory(long vmPeakKb, long vmSizeKb, long vmHwmKb, long vmRssKb, int threads) {
}
