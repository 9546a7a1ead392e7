package io.ricochet.loadgen.run;

import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.payload.Payloads;
import io.ricochet.loadgen.payload.Template;
import io.ricochet.loadgen.protobuf.DescriptorSet;
import io.ricochet.loadgen.protobuf.DynamicRpcWorkload;
import io.ricochet.loadgen.protobuf.MessageType;
import io.ricochet.loadgen.protobuf.RequestData;
import io.ricochet.loadgen.rpc.BenchUpdate;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.ScenarioException.Key;
import io.ricochet.loadgen.scenario.SizeRange;
import io.ricochet.loadgen.scenario.WorkloadSettings;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.loadgen.workload.RpcWorkload;
import io.ricochet.loadgen.workload.Workload;
import io.ricochet.rpc.RpcStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The workload a {@link Scenario} names, made before any connection: a named one from the {@link WorkloadCatalog}, a
 * no-code payload and expectation, a method of a descriptor set with JSON data (as ghz), bench.update, or register's
 * cycle. Every problem is a {@link ScenarioException} naming the key; the command line names the flag.
 *
 * <pre>{@code
 * Workload w = ScenarioWorkloads.of(scenario);      // checked: its jar, parameters, payload, descriptors
 * }</pre>
 */
public final class ScenarioWorkloads {
    private ScenarioWorkloads() {
    }

    /**
     * The workload {@code s} runs: a {@link FrameWorkload} for the framed commands, an {@link RpcWorkload} for rpc;
     * null for register, whose cycle is built in.
     */
    public static Workload of(Scenario s) {
        return switch (s.command()) {
            case RPC -> calls(s);
            case REGISTER -> null;
            case ECHO, RR, CRR, MASSIVE, RAMP -> frames(s);
            default -> throw new IllegalArgumentException("command: " + s.command().label()
                    + " (expected: one with a workload)");
        };
    }

    /** The framed workload of {@code s}: a named one, a payload and its expectation, or generated bodies. */
    public static FrameWorkload frames(Scenario s) {
        WorkloadSettings w = s.workload();
        if (w.isNamed()) {
            return WorkloadCatalog.load(w.jars()).create(w.name(), w.params(), FrameWorkload.class,
                    "a framed workload, for this command; an RPC workload runs with rpc");
        }
        Expectation expectation = w.expect() == null ? Expectation.reversed()
                : keyed("workload.expect", () -> Expectation.parse(w.expect(), s.seed()));
        if (w.payload() == null) {
            SizeRange size = s.bodySize();
            return PayloadWorkload.generated(s.seed(), size.min(), size.max(), expectation);
        }
        Template template = keyed("workload.payload", () -> Payloads.parse(w.payload(), s.seed()));
        PayloadWorkload workload = keyed("workload.payload", () -> PayloadWorkload.of(template, expectation));
        if (workload.maxBodyLength() > s.largestBody()) {
            throw new ScenarioException("workload.payload", Key.of("workload.payload"), ": up to "
                    + workload.maxBodyLength() + " bytes (expected: at most " + s.largestBody() + ", what one frame of "
                    + "this ", Key.of("length_field"), ", or one datagram, carries)");
        }
        return workload;
    }

    /** rpc's workload: a named one, a method of a descriptor set, or the echo server's bench.update. */
    private static RpcWorkload calls(Scenario s) {
        WorkloadSettings w = s.workload();
        if (w.isNamed()) {
            return WorkloadCatalog.load(w.jars()).create(w.name(), w.params(), RpcWorkload.class,
                    "an RPC workload, for rpc; a framed workload runs with echo, rr, crr or massive");
        }
        if (w.proto() == null) {
            return new BenchUpdate(s.bodySize().min(), s.seed());
        }
        DescriptorSet set = keyed("workload.proto", () -> DescriptorSet.load(w.proto()));
        MessageType request = keyed("workload.request_type", w.requestType(), () -> set.messageType(w.requestType()));
        MessageType response = keyed("workload.response_type", w.responseType(),
                () -> set.messageType(w.responseType()));
        RequestData data = keyed("workload.data", () -> RequestData.parse(w.data() == null ? "{}" : w.data(), request,
                s.seed()));
        RpcStatus status = w.expectStatus() == null ? RpcStatus.OK
                : keyed("workload.expect_status", () -> io.ricochet.loadgen.protobuf.Expectation.status(w.expectStatus()));
        if (w.expect() != null && status != RpcStatus.OK) {
            throw new ScenarioException("workload.expect", Key.of("workload.expect"), " with ",
                    Key.of("workload.expect_status"), " " + status + " (expected: ", Key.of("workload.expect"),
                    " only for OK answers, which alone carry a message)");
        }
        io.ricochet.loadgen.protobuf.Expectation expectation = keyed("workload.expect", () -> w.expect() == null
                && status == RpcStatus.OK ? io.ricochet.loadgen.protobuf.Expectation.anyAnswer(response)
                : io.ricochet.loadgen.protobuf.Expectation.of(response, status, w.expect(), s.seed()));
        return keyed("workload.method", () -> new DynamicRpcWorkload(w.method(), data, expectation));
    }

    /** What config.json says of the workload: its name and parameters, the payload, or the RPC method. */
    public static Map<String, Object> describe(Scenario s) {
        WorkloadSettings w = s.workload();
        Map<String, Object> d = new LinkedHashMap<>();
        if (w.isNamed()) {
            d.put("name", w.name());
            d.put("jars", w.jars().stream().map(Object::toString).toList());
            d.put("parameters", w.params());
        } else if (s.command() == Command.REGISTER) {
            d.put("name", "register");
        } else if (s.command() == Command.RPC && w.proto() != null) {
            d.put("proto", w.proto().toString());
            d.put("method", w.method());
            d.put("request_type", w.requestType());
            d.put("response_type", w.responseType());
            d.put("data", w.data());
            d.put("expect", w.expect());
            d.put("expect_status", w.expectStatus() == null ? "OK" : w.expectStatus());
        } else if (s.command() == Command.RPC) {
            d.put("name", "bench.update");
        } else {
            d.put("payload", w.payload() == null ? "generated" : w.payload());
            d.put("expect", w.expect() == null ? "reversed" : w.expect());
        }
        return d;
    }

    /** {@code make}'s result; its refusal a {@link ScenarioException} of {@code key}: {@code --payload: ...}. */
    private static <T> T keyed(String key, Supplier<T> make) {
        try {
            return make.get();
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(key, Key.of(key), ": " + e.getMessage());
        }
    }

    /** As {@link #keyed(String, Supplier)}, naming the value too: {@code --request-type x.Y: ...}. */
    private static <T> T keyed(String key, String value, Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(key, Key.of(key), " " + value + ": " + e.getMessage());
        }
    }
}
