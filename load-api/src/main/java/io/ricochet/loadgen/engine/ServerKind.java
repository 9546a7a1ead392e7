package io.ricochet.loadgen.engine;

/**
 * What a workload's server is, for the reason given when the server closes on a request: a built-in workload says "an
 * echo port"; others are "a port of this protocol".
 */
public interface ServerKind {
    /** The kind of port {@code --target} should be, with its article: {@code "an echo port"}. */
    String serverKind();
}
