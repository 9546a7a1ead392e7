package io.ricochet.loadgen.engine;

/** SplitMix64's finalizer: a cheap, well-mixed 64-bit hash, for seeds and generated bodies. */
public final class Mixing {
    private Mixing() {
    }

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
