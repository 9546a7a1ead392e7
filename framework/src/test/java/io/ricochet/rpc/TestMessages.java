package io.ricochet.rpc;

import com.google.protobuf.MessageLite;
import java.lang.reflect.Proxy;

/** Messages no generated class would produce, for the codec's failure paths. */
final class TestMessages {
    private TestMessages() {
    }

    /** A message that says it takes three bytes and throws when it is written. */
    static MessageLite failingToSerialize() {
        return (MessageLite) Proxy.newProxyInstance(MessageLite.class.getClassLoader(), new Class<?>[] {MessageLite.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSerializedSize" -> 3;
                    case "writeTo" -> throw new IllegalStateException("cannot be written");
                    case "toString" -> "a message that cannot be written";
                    case "hashCode" -> 0;
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
