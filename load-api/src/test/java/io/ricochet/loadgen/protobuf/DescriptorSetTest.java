package io.ricochet.loadgen.protobuf;

import static io.ricochet.loadgen.protobuf.Protosets.ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.ricochet.echo.rpc.proto.BenchMessage;
import io.ricochet.loadgen.protobuf.testproto.Order;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DescriptorSetTest {
    private static final String HOW = "(write one with protoc --include_imports --descriptor_set_out)";

    @Test
    void loadsTheSetProtocWrote() {
        DescriptorSet set = DescriptorSet.load(Protosets.protocWritten());

        MessageType order = set.messageType(ORDER);
        assertEquals(ORDER, order.fullName());
        assertEquals("google.protobuf.Timestamp",
                order.descriptor().findFieldByName("placed_at").getMessageType().getFullName());
        // protoc's set also carries each field's json_name, which the generated classes' descriptors leave out.
        assertEquals(fields(Order.getDescriptor()), fields(order.descriptor()));
    }

    private static List<String> fields(Descriptor type) {
        return type.getFields().stream().map(f -> f.getName() + " " + f.getNumber() + " " + f.getType()).toList();
    }

    static Stream<Arguments> setsInAnyOrder() {
        List<FileDescriptorProto> orderOnly = List.of(Order.getDescriptor().getFile().toProto());
        return Stream.of(
                arguments("imports first, as protoc writes", Protosets.set(Protosets.withImports(Order.getDescriptor().getFile()))),
                arguments("importing file first", Protosets.orderReversed()),
                arguments("well-known imports left out", Protosets.set(orderOnly)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void setsInAnyOrder(String name, FileDescriptorSet files) {
        MessageType order = DescriptorSet.of(files).messageType(ORDER);

        FieldDescriptor placedAt = order.descriptor().findFieldByName("placed_at");
        assertEquals("google.protobuf.Timestamp", placedAt.getMessageType().getFullName());
        assertEquals(Order.getDescriptor().toProto(), order.descriptor().toProto());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ricochet.loadgen.test.Order.Line", ".ricochet.loadgen.test.Inner", "ricochet.loadgen.test.Deep",
            "google.protobuf.Timestamp", "google.protobuf.Empty"})
    void findsNestedImportedAndWellKnownTypes(String name) {
        MessageType type = DescriptorSet.of(Protosets.orderReversed()).messageType(name);

        assertEquals(name.substring(name.startsWith(".") ? 1 : 0), type.fullName());
    }

    @Test
    void theBenchMessageFromItsGeneratedClass() {
        DescriptorSet set = DescriptorSet.of(Protosets.set(List.of(BenchMessage.getDescriptor().getFile().toProto())));

        assertEquals(BenchMessage.getDescriptor().toProto(), set.messageType(Protosets.BENCH).descriptor().toProto());
    }

    @Test
    void aTypeNotInTheSetListsTheTypesItHasThoseNamedAlikeFirst() {
        DescriptorSet set = DescriptorSet.of(Protosets.orderReversed());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> set.messageType("Deep"));

        assertEquals("no message type Deep in the set (expected: one of ricochet.loadgen.test.Deep, "
                + "ricochet.loadgen.test.Order, ricochet.loadgen.test.Order.Line, ricochet.loadgen.test.Inner, "
                + "google.protobuf.Struct, google.protobuf.Value, google.protobuf.ListValue, google.protobuf.Timestamp, "
                + "google.protobuf.DoubleValue, google.protobuf.FloatValue, google.protobuf.Int64Value, "
                + "google.protobuf.UInt64Value, google.protobuf.Int32Value, google.protobuf.UInt32Value, "
                + "google.protobuf.BoolValue, google.protobuf.StringValue, google.protobuf.BytesValue)", e.getMessage());
    }

    @Test
    void theListIsBounded() {
        List<FileDescriptorProto> files = new ArrayList<>(Protosets.withImports(Order.getDescriptor().getFile()));
        files.add(DescriptorProtos.getDescriptor().toProto());
        DescriptorSet set = DescriptorSet.of(Protosets.set(files));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> set.messageType("a.Nope"));

        assertEquals(DescriptorSet.MAX_LISTED, e.getMessage().split(", ").length, e.getMessage());
        assertTrue(e.getMessage().matches("no message type a\\.Nope in the set \\(expected: one of "
                + "ricochet\\.loadgen\\.test\\.Order, .* and \\d+ more\\)"), e.getMessage());
    }

    static Stream<Arguments> badSets() {
        FileDescriptorProto a = file("a.proto", "b.proto");
        FileDescriptorProto b = file("b.proto", "a.proto");
        FileDescriptorProto badField = file("a.proto").toBuilder()
                .setMessageType(0, DescriptorProto.newBuilder().setName("A").addField(FieldDescriptorProto.newBuilder()
                        .setName("x").setNumber(1).setTypeName(".a.Nope")
                        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)))
                .build();
        return Stream.of(
                arguments("not protobuf", "not a descriptor set".getBytes(StandardCharsets.UTF_8),
                        "does not parse as a FileDescriptorSet " + HOW),
                arguments("a .proto source", "syntax = \"proto3\";\nmessage A {}\n".getBytes(StandardCharsets.UTF_8),
                        "does not parse as a FileDescriptorSet " + HOW),
                arguments("empty", new byte[0], "holds no files " + HOW),
                arguments("an import missing", Protosets.set(List.of(file("a.proto", "google/api/http.proto"))).toByteArray(),
                        "a.proto imports google/api/http.proto, which is not in the set (write the set with protoc "
                                + "--include_imports)"),
                arguments("an import cycle", Protosets.set(List.of(a, b)).toByteArray(),
                        "an import cycle: a.proto -> b.proto -> a.proto"),
                arguments("two files of one name", Protosets.set(List.of(file("a.proto"), file("a.proto", "b.proto")))
                        .toByteArray(), "holds two different files named a.proto"),
                arguments("a file that does not build", Protosets.set(List.of(badField)).toByteArray(),
                        "a.proto does not build: a.A.x: \".a.Nope\" is not defined."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void badSets(String name, byte[] bytes, String expected, @TempDir Path dir) {
        Path file = Protosets.write(dir, "bad.protoset", bytes);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DescriptorSet.load(file));

        assertEquals(file + ": " + expected, e.getMessage());
    }

    @Test
    void theSameFileTwiceIsHarmless() {
        List<FileDescriptorProto> twice = new ArrayList<>(Protosets.withImports(Order.getDescriptor().getFile()));
        twice.addAll(Protosets.withImports(Order.getDescriptor().getFile()));

        assertEquals(ORDER, DescriptorSet.of(Protosets.set(twice)).messageType(ORDER).fullName());
    }

    @Test
    void aMissingFile(@TempDir Path dir) {
        Path missing = dir.resolve("missing.protoset");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DescriptorSet.load(missing));

        assertEquals(missing + ": no such file", e.getMessage());
    }

    @Test
    void aDirectory(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DescriptorSet.load(dir));

        assertEquals(dir + ": not a regular file (a directory; expected: a file)", e.getMessage());
    }

    private static FileDescriptorProto file(String name, String... imports) {
        return FileDescriptorProto.newBuilder().setName(name).setPackage("a").setSyntax("proto3")
                .addAllDependency(List.of(imports))
                .addMessageType(DescriptorProto.newBuilder().setName("M" + name.charAt(0)))
                .build();
    }
}
