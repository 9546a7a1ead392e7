package io.ricochet.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** {@link Cli} for tests in other packages. */
public final class CliRunner {
    private CliRunner() {
    }

    public record Result(int exit, String out, String err) {
        public JsonNode json() {
            return new Cli.Result(exit, out, err).json();
        }
    }

    public static Result run(String... args) {
        Cli.Result r = Cli.run(args);
        return new Result(r.exit(), r.out(), r.err());
    }
}
