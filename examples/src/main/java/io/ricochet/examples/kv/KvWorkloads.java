package io.ricochet.examples.kv;

import io.ricochet.loadgen.workload.Workload;
import io.ricochet.loadgen.workload.WorkloadParameters;
import io.ricochet.loadgen.workload.WorkloadProvider;

/**
 * The kv workloads by name, for {@code --workload-jar ricochet-examples.jar --workload kv-text} (or {@code kv-rpc}),
 * found through {@code META-INF/services/io.ricochet.loadgen.workload.WorkloadProvider}. Both take {@code
 * --workload-param keys=N} (keys per connection, 1..100,000, default {@value #DEFAULT_KEYS}) and {@code
 * get-share=S} (the share of requests that are gets, 0..1, default {@value #DEFAULT_GET_SHARE}).
 *
 * <pre>{@code
 * Workload kv = new KvWorkloads.Text().create(WorkloadParameters.of(Map.of("keys", "1000")));
 * }</pre>
 */
public final class KvWorkloads {
    public static final int DEFAULT_KEYS = 100;
    public static final double DEFAULT_GET_SHARE = 0.5;

    private KvWorkloads() {
    }

    /** {@code kv-text}: {@link KvTextWorkload}, against {@link KvServer}'s TCP port. */
    public static final class Text implements WorkloadProvider {
        @Override
        public String name() {
            return "kv-text";
        }

        @Override
        public String description() {
            return "puts then gets over the kv example's text protocol, every value read back checked; "
                    + "keys=N (per connection, default " + DEFAULT_KEYS + "), get-share=0..1 (default "
                    + DEFAULT_GET_SHARE + ")";
        }

        @Override
        public Workload create(WorkloadParameters parameters) {
            return new KvTextWorkload(keys(parameters), getShare(parameters));
        }
    }

    /** {@code kv-rpc}: {@link KvRpcWorkload}, against {@link KvServer}'s RPC port. */
    public static final class Rpc implements WorkloadProvider {
        @Override
        public String name() {
            return "kv-rpc";
        }

        @Override
        public String description() {
            return "puts then gets over the kv example's kv.put and kv.get, every value read back checked; "
                    + "keys=N (per connection, default " + DEFAULT_KEYS + "), get-share=0..1 (default "
                    + DEFAULT_GET_SHARE + ")";
        }

        @Override
        public Workload create(WorkloadParameters parameters) {
            return new KvRpcWorkload(keys(parameters), getShare(parameters));
        }
    }

    private static int keys(WorkloadParameters parameters) {
        return parameters.intValue("keys", DEFAULT_KEYS);
    }

    private static double getShare(WorkloadParameters parameters) {
        return parameters.doubleValue("get-share", DEFAULT_GET_SHARE);
    }
}
