package io.ricochet.examples.kv;

import io.ricochet.loadgen.workload.Context;
import java.util.OptionalLong;

/**
 * What the kv workloads share whatever their protocol: keys per connection and the share of gets, checked once, a
 * {@link KvModel} per connection, and the store each connection fills.
 */
abstract class KvModelWorkload {
    private final int keys;
    private final double getShare;

    KvModelWorkload(int keys, double getShare) {
        KvModel.checkParameters(keys, getShare);
        this.keys = keys;
        this.getShare = getShare;
    }

    /** The requests and expectations of one connection. */
    final KvModel model(Context connection) {
        return new KvModel(connection.connection(), keys, getShare);
    }

    public final OptionalLong bytesPerConnection() {
        return OptionalLong.of(KvModel.bytesPerConnection(keys));
    }
}
