package io.ricochet.loadgen.scenario;

import static io.ricochet.config.Checks.inRange;

import io.ricochet.loadgen.scenario.ScenarioException.Key;

/**
 * The checks of a {@link Scenario}'s workload settings that need nothing loaded: which settings go together. What a
 * payload, an expectation or a descriptor set holds is checked when the workload is made from them, before any
 * connection ({@code ScenarioWorkloads}).
 */
final class WorkloadRules {
    private WorkloadRules() {
    }

    /** The framed commands: a named workload, or a payload and its expectation, or generated bodies of a size. */
    static void frames(Scenario s) {
        WorkloadSettings w = s.workload();
        noRpcSettings(s, w);
        onlyWithAName(w);
        if (w.isNamed() && w.size() != null) {
            throw new ScenarioException("workload.size", Key.of("workload.size"), " with ", Key.of("workload.name"),
                    " (expected: one of them; the workload makes its requests, their size included)");
        }
        SizeRange size = s.bodySize();
        inRange("workload.size", size.min(), 1, s.largestBody());
        inRange("workload.size", size.max(), size.min(), s.largestBody());
        if (w.isNamed() && (w.payload() != null || w.expect() != null)) {
            String given = w.payload() != null ? "workload.payload" : "workload.expect";
            throw new ScenarioException(given, Key.of(given), " with ", Key.of("workload.name"), " (expected: one of "
                    + "them; the workload makes its requests and checks its replies)");
        }
        if (w.payload() != null && w.size() != null) {
            throw new ScenarioException("workload.size", Key.of("workload.size"), " with ", Key.of("workload.payload"),
                    " (expected: one of them; the payload's own bytes are its size)");
        }
    }

    /** rpc: a named workload, a method of a descriptor set, or bench.update; register: its own cycle. */
    static void calls(Scenario s) {
        WorkloadSettings w = s.workload();
        onlyWithAName(w);
        if (w.payload() != null) {
            throw new ScenarioException("workload.payload", Key.of("workload.payload"), " with command "
                    + s.command().label() + " (expected: a framed command; RPC calls are made from ",
                    Key.of("workload.data"), ")");
        }
        if (s.command() == Command.REGISTER && (w.isNamed() || w.proto() != null)) {
            String given = w.isNamed() ? "workload.name" : "workload.proto";
            throw new ScenarioException(given, Key.of(given), " with command register (expected: none; its cycle is "
                    + "built in)");
        }
        if (w.isNamed() && w.proto() != null) {
            throw new ScenarioException("workload.proto", Key.of("workload.proto"), " with ", Key.of("workload.name"),
                    " (expected: one of them)");
        }
        if (w.proto() != null) {
            for (String required : new String[] {"workload.method", "workload.request_type", "workload.response_type"}) {
                if (value(w, required) == null) {
                    throw new ScenarioException("workload.proto", Key.of("workload.proto"), " without ",
                            Key.of(required), " (expected: ", Key.of("workload.method"), ", ",
                            Key.of("workload.request_type"), " and ", Key.of("workload.response_type"), " with it)");
                }
            }
        } else if (!w.isNamed()) {
            for (String stray : new String[] {"workload.method", "workload.request_type", "workload.response_type",
                "workload.data", "workload.expect", "workload.expect_status"}) {
                if (value(w, stray) != null) {
                    throw new ScenarioException(stray, Key.of(stray), " without ", Key.of("workload.proto"),
                            " (expected: ", Key.of("workload.proto"), " FILE naming its types)");
                }
            }
        }
    }

    /**
     * A named workload's jars and parameters: without a name they would be ignored, and the default check would run
     * against the user's service, failing with an error that says nothing of them.
     */
    private static void onlyWithAName(WorkloadSettings w) {
        if (w.isNamed()) {
            return;
        }
        String stray = !w.params().isEmpty() ? "workload.params" : !w.jars().isEmpty() ? "workload.jars" : null;
        if (stray != null) {
            throw new ScenarioException(stray, Key.of(stray), " without ", Key.of("workload.name"), " (expected: ",
                    Key.of("workload.name"), " NAME, the workload they are for; 'list' names the ones found)");
        }
    }

    /** The framed commands take none of the RPC workload's settings. */
    private static void noRpcSettings(Scenario s, WorkloadSettings w) {
        for (String rpcOnly : new String[] {"workload.proto", "workload.method", "workload.request_type",
            "workload.response_type", "workload.data", "workload.expect_status"}) {
            if (value(w, rpcOnly) != null) {
                throw new ScenarioException(rpcOnly, Key.of(rpcOnly), " with command " + s.command().label()
                        + " (expected: rpc, whose calls it describes)");
            }
        }
    }

    private static Object value(WorkloadSettings w, String key) {
        return switch (key) {
            case "workload.proto" -> w.proto();
            case "workload.method" -> w.method();
            case "workload.request_type" -> w.requestType();
            case "workload.response_type" -> w.responseType();
            case "workload.data" -> w.data();
            case "workload.expect" -> w.expect();
            case "workload.expect_status" -> w.expectStatus();
            default -> throw new IllegalStateException(key);
        };
    }
}
