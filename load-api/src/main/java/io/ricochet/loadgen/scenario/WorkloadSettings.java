package io.ricochet.loadgen.scenario;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link Scenario}'s requests are and how their replies are checked ({@code workload:} in a scenario file):
 * one of a named Java workload from a {@code WorkloadProvider} ({@code name}, {@code jars}, {@code params}), a no-code
 * {@code payload} with its {@code expect}, an RPC method of a descriptor set ({@code proto} and the rest), or by
 * default generated bodies of {@code size} checked as the reference echo server answers them.
 *
 * <pre>{@code
 * WorkloadSettings kv = WorkloadSettings.named("kv-text", Map.of("keys", "1000"));
 * WorkloadSettings bodies = WorkloadSettings.generated(SizeRange.parseBytes("64..1k"));
 * }</pre>
 *
 * @param name         a workload's provider name, or null
 * @param jars         jars of workload providers searched besides the class path (and an image's workloads/)
 * @param params       the named workload's parameters
 * @param payload      the request body with placeholders ({@code TEXT}, {@code @FILE}, {@code hex:HEX}), or null
 * @param expect       how a reply is checked: a framed mode ({@code reversed}, {@code regex:RE}, ...) or, for RPC, the
 *                     fields an answer must have as JSON; null for the default
 * @param size         body bytes of generated bodies (framed), of bench.update's and registration's calls (RPC), or of
 *                     each datagram (udp-stream); null for the command's default
 * @param proto        a FileDescriptorSet holding the RPC method's types, or null
 * @param method       with {@code proto}: the method to call
 * @param requestType  with {@code proto}: the request's full message name
 * @param responseType with {@code proto}: the answer's full message name
 * @param data         with {@code proto}: the request as JSON, or {@code @FILE} of one object per line
 * @param expectStatus with {@code proto}: the status every call must end with, or null for OK
 */
public record WorkloadSettings(String name, List<Path> jars, Map<String, String> params, String payload, String expect,
        SizeRange size, Path proto, String method, String requestType, String responseType, String data,
        String expectStatus) {

    public WorkloadSettings {
        jars = jars == null ? List.of() : List.copyOf(jars);
        params = params == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /** Generated bodies of {@code size} (null: the command's), each reply checked as the reference echo server answers. */
    public static WorkloadSettings generated(SizeRange size) {
        return new WorkloadSettings(null, List.of(), Map.of(), null, null, size, null, null, null, null, null, null);
    }

    /** The workload a {@code WorkloadProvider} named {@code name} makes with {@code params}. */
    public static WorkloadSettings named(String name, Map<String, String> params) {
        return new WorkloadSettings(name, List.of(), params, null, null, null, null, null, null, null, null, null);
    }

    /**
     * A no-code workload: {@code payload} sent as each request (placeholders such as {@code {{seq}}} filled in), its reply
     * checked as {@code expect} says ({@code reversed}, {@code echo}, {@code regex:RE}, ...; null for the default).
     */
    public static WorkloadSettings payload(String payload, String expect) {
        return new WorkloadSettings(null, List.of(), Map.of(), payload, expect, null, null, null, null, null, null,
                null);
    }

    /** Whether a named Java workload runs. */
    public boolean isNamed() {
        return name != null;
    }





}
