/**
 * RPC load with no code, as ghz loads gRPC: a method's message types from a descriptor set ({@code protoc
 * --include_imports --descriptor_set_out}), requests written as JSON with placeholders, and answers checked against
 * an expected subset of their fields and an expected status.
 *
 * <pre>{@code
 * DescriptorSet set = DescriptorSet.load(Path.of("ricochet_bench.protoset"));
 * MessageType bench = set.messageType("ricochet.bench.BenchMessage");
 * RequestData data = RequestData.parse("@requests.jsonl", bench, seed);
 * Expectation expect = Expectation.of(bench, Expectation.status("ok"), "{\"client_id\": \"{{conn}}\"}", seed);
 * RpcWorkload workload = new DynamicRpcWorkload("bench.update", data, expect);
 * }</pre>
 *
 * Each step throws an {@link java.lang.IllegalArgumentException} of one line that does not name the option it came
 * from, so the command line can say which.
 */
package io.ricochet.loadgen.protobuf;
