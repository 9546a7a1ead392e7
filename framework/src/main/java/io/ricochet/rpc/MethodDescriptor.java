package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.ricochet.config.Checks;

/**
 * A method's name and its request and response types, so handlers take and return protobuf messages
 * and callers get typed answers:
 *
 * <pre>{@code
 * static final MethodDescriptor<GetStock, Stock> GET = MethodDescriptor.of("stock.get",
 *         GetStock.getDefaultInstance(), Stock.getDefaultInstance());
 * dispatcher.register(GET, RpcMethod.sync(request -> lookup(request.getItem())));
 * Stock stock = client.call(GET, GetStock.newBuilder().setItem("apple").build()).join();
 * }</pre>
 */
public record MethodDescriptor<Req extends MessageLite, Resp extends MessageLite>(
        String name, Parser<Req> requestParser, Parser<Resp> responseParser) {

    public MethodDescriptor {
        RpcDispatcher.checkMethod(name);
        Checks.notNull("requestParser", requestParser);
        Checks.notNull("responseParser", responseParser);
    }

    /** The descriptor of {@code name}, its message types taken from their default instances. */
    @SuppressWarnings("unchecked")
    public static <Req extends MessageLite, Resp extends MessageLite> MethodDescriptor<Req, Resp> of(String name,
            Req requestType, Resp responseType) {
        return new MethodDescriptor<>(name, (Parser<Req>) requestType.getParserForType(),
                (Parser<Resp>) responseType.getParserForType());
    }

    /** The request a caller sent; {@code INVALID_ARGUMENT} if it is not one. For handlers that take raw payloads. */
    public Req parseRequest(ByteString payload) {
        try {
            return requestParser.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, name + ": the payload is not its request: " + e.getMessage());
        }
    }

    /** The answer a callee sent; {@code INTERNAL} if it is not one (the two ends disagree on the method). */
    public Resp parseResponse(ByteString payload) {
        try {
            return responseParser.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            throw new RpcException(RpcStatus.INTERNAL, name + ": the answer is not its response: " + e.getMessage());
        }
    }
}
