package io.ricochet.examples.kv;

import io.ricochet.loadgen.workload.Context;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * What the kv workloads share whatever their protocol: keys per connection and the share of gets, checked once, a
 * {@link KvModel} per connection, and the store each connection fills. Each opens a connection as its conversation
 * over that connection's model.
 *
 * @param <C> the protocol's conversation
 */
abstract class KvModelWorkload<C> {
    private final int keys;
    private final double getShare;
    private final Function<KvModel, C> conversation;

    /** @param conversation one connection's requests and checks, all from its model */
    KvModelWorkload(int keys, double getShare, Function<KvModel, C> conversation) {
        KvModel.checkParameters(keys, getShare);
        this.keys = keys;
        this.getShare = getShare;
        this.conversation = conversation;
    }

    /** The requests and expectations of one connection, from its own model. */
    public final C open(Context connection) {
        return conversation.apply(new KvModel(connection.connection(), keys, getShare));
    }

    public final OptionalLong bytesPerConnection() {
        return OptionalLong.of(KvModel.bytesPerConnection(keys));
    }
}
