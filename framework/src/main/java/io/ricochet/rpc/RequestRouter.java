package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import java.util.concurrent.CompletionStage;

/** Decides who answers a request that came in on a connection. */
@FunctionalInterface
interface RequestRouter {
    CompletionStage<ByteString> route(RpcRequest request);
}
