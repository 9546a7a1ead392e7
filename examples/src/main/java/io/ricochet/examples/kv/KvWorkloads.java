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
    public static final class Text extends KvProvider {
        public Text() {
            super(new Kind("kv-text", "the kv example's text protocol", KvTextWorkload::new));
        }
    }

    /** {@code kv-rpc}: {@link KvRpcWorkload}, against {@link KvServer}'s RPC port. */
    public static final class Rpc extends KvProvider {
        public Rpc() {
            super(new Kind("kv-rpc", "the kv example's kv.put and kv.get", KvRpcWorkload::new));
        }
    }

    /** Makes a kv workload from its keys per connection and its share of gets. */
    private interface Maker {
        Workload make(int keys, double getShare);
    }

    /** A kv workload's name, the protocol its description names, and how it is made. */
    private record Kind(String name, String protocol, Maker maker) {
    }

    /** A kv workload by its name: both read {@code keys} and {@code get-share} alike, over their own protocol. */
    private abstract static class KvProvider implements WorkloadProvider {
        private final Kind kind;

        KvProvider(Kind kind) {
            this.kind = kind;
        }

        @Override
        public final String name() {
            return kind.name();
        }

        @Override
        public final String description() {
            return "puts then gets over " + kind.protocol() + ", every value read back checked; "
                    + "keys=N (per connection, default " + DEFAULT_KEYS + "), get-share=0..1 (default "
                    + DEFAULT_GET_SHARE + ")";
        }

        @Override
        public final Workload create(WorkloadParameters parameters) {
            return kind.maker().make(parameters.intValue("keys", DEFAULT_KEYS),
                    parameters.doubleValue("get-share", DEFAULT_GET_SHARE));
        }
    }
}
