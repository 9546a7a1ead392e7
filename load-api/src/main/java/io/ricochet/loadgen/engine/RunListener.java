package io.ricochet.loadgen.engine;

/**
 * What takes a run's intervals as the {@link LoadDriver} measures them: the report, the progress line, the server's
 * scrape, a controller's worker session. The engine knows none of them.
 */
public interface RunListener {
    RunListener NONE = (interval, lengthS) -> {
    };

    /** Measurement begins now (after the warmup, or before the first request without one): take baselines here. */
    default void measuring() {
    }

    /**
     * One measured interval, whose rates are over {@code lengthS} seconds (its real length: the last interval of a run
     * is cut short or stretched by the drain). Its histograms are reused after the call returns: copy what you keep.
     */
    void interval(Interval interval, double lengthS);
}
