package io.ricochet.loadgen.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.util.JsonFormat;

/**
 * A message type known by its descriptor, with the types its JSON may name ({@code Any}'s {@code @type}): the request or
 * the answer of a method called without generated classes. Get one from a {@link DescriptorSet}, or from a descriptor
 * at hand.
 *
 * <pre>{@code
 * MessageType bench = MessageType.of(BenchMessage.getDescriptor());
 * }</pre>
 */
public final class MessageType {
    private final Descriptor descriptor;
    private final JsonFormat.Parser parser;
    private final JsonFormat.Printer printer;

    private MessageType(Descriptor descriptor, JsonFormat.TypeRegistry registry) {
        this.descriptor = descriptor;
        this.parser = JsonFormat.parser().usingTypeRegistry(registry);
        // Proto field names, as the reasons of bad answers name fields.
        this.printer = JsonFormat.printer().usingTypeRegistry(registry).preservingProtoFieldNames()
                .omittingInsignificantWhitespace();
    }

    /** {@code descriptor}, whose JSON may name the types of its file and of the files it imports. */
    public static MessageType of(Descriptor descriptor) {
        return new MessageType(descriptor, JsonFormat.TypeRegistry.newBuilder().add(descriptor).build());
    }

    static MessageType of(Descriptor descriptor, JsonFormat.TypeRegistry registry) {
        return new MessageType(descriptor, registry);
    }

    public Descriptor descriptor() {
        return descriptor;
    }

    /** {@code package.Message}. */
    public String fullName() {
        return descriptor.getFullName();
    }

    JsonFormat.Parser parser() {
        return parser;
    }

    JsonFormat.Printer printer() {
        return printer;
    }

    @Override
    public String toString() {
        return fullName();
    }
}
