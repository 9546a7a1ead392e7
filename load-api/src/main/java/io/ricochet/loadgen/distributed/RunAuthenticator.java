package io.ricochet.loadgen.distributed;

import com.google.protobuf.ByteString;
import io.ricochet.rpc.RpcAuthenticator;
import io.ricochet.rpc.RpcConnection;
import java.net.SocketAddress;

/** Admits connections with the run's secret; counts and reports every refusal as a refused input. */
final class RunAuthenticator implements RpcAuthenticator {
    private final RpcAuthenticator secret;
    private final RefusedInputs refused;

    RunAuthenticator(String runSecret, RefusedInputs refused) {
        this.secret = RpcAuthenticator.bearerToken(runSecret);
        this.refused = refused;
    }

    @Override
    public boolean accepts(ByteString credential) {
        if (secret.accepts(credential)) {
            return true;
        }
        refused.record(RpcConnection.AUTH, "a connection with a wrong run secret");
        return false;
    }

    @Override
    public void refused(String method, SocketAddress peer) {
        refused.record(method, "from " + peer + ", which has not given the run secret");
    }

    /** A stranger that connected and never gave the secret: counted and named, as a refused call is. */
    @Override
    public void dropped(SocketAddress peer, String why) {
        refused.record(RpcConnection.AUTH, "a connection from " + peer + " closed: " + why);
    }
}
