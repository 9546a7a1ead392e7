package io.ricochet.loadgen.protobuf;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.ricochet.echo.rpc.proto.BenchMessage;
import io.ricochet.loadgen.protobuf.testproto.Order;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Descriptor sets for the tests, built from generated classes or as protoc wrote them at build time. */
final class Protosets {
    static final String ORDER = "ricochet.loadgen.test.Order";
    static final String BENCH = "ricochet.bench.BenchMessage";
    /** The test protos' set, written by protoc --include_imports in the build (load-api/pom.xml). */
    static final String PROTOC_WRITTEN = "/loadgen_test.protoset";

    private Protosets() {
    }

    /** {@code file} and every file it imports, each after its imports, as protoc --include_imports writes them. */
    static List<FileDescriptorProto> withImports(FileDescriptor file) {
        Set<FileDescriptor> ordered = new LinkedHashSet<>();
        addWithImports(file, ordered);
        return ordered.stream().map(FileDescriptor::toProto).toList();
    }

    private static void addWithImports(FileDescriptor file, Set<FileDescriptor> ordered) {
        file.getDependencies().forEach(d -> addWithImports(d, ordered));
        ordered.add(file);
    }

    static FileDescriptorSet set(List<FileDescriptorProto> files) {
        return FileDescriptorSet.newBuilder().addAllFile(files).build();
    }

    /** The test protos and their imports, the importing file first: the order protoc does not use. */
    static FileDescriptorSet orderReversed() {
        List<FileDescriptorProto> files = new ArrayList<>(withImports(Order.getDescriptor().getFile()));
        Collections.reverse(files);
        return set(files);
    }

    static MessageType order() {
        return DescriptorSet.of(set(withImports(Order.getDescriptor().getFile()))).messageType(ORDER);
    }

    static MessageType bench() {
        return DescriptorSet.of(set(withImports(BenchMessage.getDescriptor().getFile()))).messageType(BENCH);
    }

    static Path protocWritten() {
        try {
            return Path.of(Protosets.class.getResource(PROTOC_WRITTEN).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path write(Path dir, String name, byte[] bytes) {
        try {
            return Files.write(dir.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
