package io.ricochet.loadgen.protobuf;

import com.google.protobuf.AnyProto;
import com.google.protobuf.ApiProto;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DurationProto;
import com.google.protobuf.EmptyProto;
import com.google.protobuf.FieldMaskProto;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.JavaFeaturesProto;
import com.google.protobuf.SourceContextProto;
import com.google.protobuf.StructProto;
import com.google.protobuf.TimestampProto;
import com.google.protobuf.TypeProto;
import com.google.protobuf.WrappersProto;
import com.google.protobuf.compiler.PluginProtos;
import com.google.protobuf.util.JsonFormat;
import io.ricochet.loadgen.files.InputFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The message types of a descriptor set, as {@code protoc --include_imports --descriptor_set_out=FILE} writes one
 * (ghz's {@code --protoset}): what the load generator needs to call a method it has no generated classes for. The
 * files may come in any order; an import the set lacks is taken from the protobuf runtime if it is one of its
 * well-known types ({@code google/protobuf/timestamp.proto} and the others).
 *
 * <pre>{@code
 * DescriptorSet set = DescriptorSet.load(Path.of("ricochet_bench.protoset"));
 * MessageType bench = set.messageType("ricochet.bench.BenchMessage");
 * }</pre>
 *
 * Every error is an {@link IllegalArgumentException} of one line, which does not name the option the file or type
 * came from: the caller says that.
 */
public final class DescriptorSet {
    /** The largest descriptor set {@link #load} reads. */
    public static final int MAX_FILE_BYTES = 64 << 20;
    /** How many type names an error lists at most. */
    static final int MAX_LISTED = 20;
    private static final String HOW_TO_WRITE = "write one with protoc --include_imports --descriptor_set_out";
    private static final Map<String, FileDescriptor> RUNTIME = Stream.of(AnyProto.getDescriptor(),
                    ApiProto.getDescriptor(), DescriptorProtos.getDescriptor(), DurationProto.getDescriptor(),
                    EmptyProto.getDescriptor(), FieldMaskProto.getDescriptor(), SourceContextProto.getDescriptor(),
                    StructProto.getDescriptor(), TimestampProto.getDescriptor(), TypeProto.getDescriptor(),
                    WrappersProto.getDescriptor(), JavaFeaturesProto.getDescriptor(), PluginProtos.getDescriptor())
            .collect(Collectors.toUnmodifiableMap(FileDescriptor::getName, f -> f));

    private final List<FileDescriptor> files;
    private final Map<String, Descriptor> types;
    private final JsonFormat.TypeRegistry registry;

    private DescriptorSet(List<FileDescriptor> files) {
        this.files = List.copyOf(files);
        Map<String, Descriptor> byName = new LinkedHashMap<>();
        for (FileDescriptor file : files) {
            file.getMessageTypes().forEach(type -> index(type, byName));
        }
        this.types = byName;
        this.registry = JsonFormat.TypeRegistry.newBuilder().add(byName.values()).build();
    }

    private static void index(Descriptor type, Map<String, Descriptor> byName) {
        byName.put(type.getFullName(), type);
        type.getNestedTypes().forEach(nested -> index(nested, byName));
    }

    /**
     * The descriptor set in {@code file}, of at most {@value #MAX_FILE_BYTES} bytes. Errors name the file:
     * {@code a.protoset: no such file}, {@code a.protoset: does not parse as a FileDescriptorSet (write one with protoc
     * --include_imports --descriptor_set_out)}, {@code a.protoset: bench.proto imports google/api/http.proto, which is
     * not in the set (…)}.
     */
    public static DescriptorSet load(Path file) {
        byte[] bytes = InputFiles.read(file, MAX_FILE_BYTES);
        FileDescriptorSet set;
        try {
            set = FileDescriptorSet.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(file + ": does not parse as a FileDescriptorSet (" + HOW_TO_WRITE + ")");
        }
        try {
            return of(set);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** The files of {@code set}, built in the order their imports need. */
    public static DescriptorSet of(FileDescriptorSet set) {
        if (set.getFileCount() == 0) {
            // An empty file parses as an empty set, as do bytes that happen to hold only unknown fields.
            throw new IllegalArgumentException("holds no files (" + HOW_TO_WRITE + ")");
        }
        Map<String, FileDescriptorProto> protos = new LinkedHashMap<>();
        for (FileDescriptorProto proto : set.getFileList()) {
            FileDescriptorProto before = protos.putIfAbsent(proto.getName(), proto);
            // Concatenated sets repeat their shared imports, which is harmless; two different files of one name are not.
            if (before != null && !before.equals(proto)) {
                throw new IllegalArgumentException("holds two different files named " + proto.getName());
            }
        }
        Map<String, FileDescriptor> built = new LinkedHashMap<>();
        for (String name : protos.keySet()) {
            build(name, protos, built, new ArrayList<>());
        }
        return new DescriptorSet(new ArrayList<>(built.values()));
    }

    private static FileDescriptor build(String name, Map<String, FileDescriptorProto> protos,
                                        Map<String, FileDescriptor> built, List<String> importing) {
        FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        if (importing.contains(name)) {
            throw new IllegalArgumentException("an import cycle: " + String.join(" -> ", importing) + " -> " + name);
        }
        FileDescriptorProto proto = protos.get(name);
        importing.add(name);
        FileDescriptor[] dependencies = new FileDescriptor[proto.getDependencyCount()];
        for (int i = 0; i < dependencies.length; i++) {
            String dependency = proto.getDependency(i);
            if (protos.containsKey(dependency)) {
                dependencies[i] = build(dependency, protos, built, importing);
            } else if (RUNTIME.containsKey(dependency)) {
                dependencies[i] = RUNTIME.get(dependency);
            } else {
                throw new IllegalArgumentException(name + " imports " + dependency
                        + ", which is not in the set (write the set with protoc --include_imports)");
            }
        }
        importing.remove(importing.size() - 1);
        try {
            FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies);
            built.put(name, file);
            return file;
        } catch (DescriptorValidationException e) {
            throw new IllegalArgumentException(name + " does not build: " + e.getMessage());
        }
    }

    /** The files of the set, each after the files it imports. */
    public List<FileDescriptor> files() {
        return files;
    }

    /**
     * The message type {@code fullName} ({@code package.Message}, {@code package.Outer.Inner}; a leading dot is
     * allowed), from the set or, failing that, one of the runtime's well-known types ({@code google.protobuf.Empty}).
     * A name not found is an {@link IllegalArgumentException} listing the types the set has, those whose name ends the
     * same first: {@code no message type Bench in the set (expected: one of ricochet.bench.BenchMessage, …)}.
     */
    public MessageType messageType(String fullName) {
        String name = fullName.startsWith(".") ? fullName.substring(1) : fullName;
        Descriptor type = types.get(name);
        if (type == null) {
            type = runtimeType(name);
        }
        if (type == null) {
            String listed = listed(name);
            throw new IllegalArgumentException("no message type " + fullName + " in the set"
                    + (listed.isEmpty() ? ", which has none" : " (expected: one of " + listed + ")"));
        }
        return MessageType.of(type, registry);
    }

    private static Descriptor runtimeType(String name) {
        for (FileDescriptor file : RUNTIME.values()) {
            Descriptor type = file.findMessageTypeByName(name.substring(name.lastIndexOf('.') + 1));
            if (type != null && type.getFullName().equals(name)) {
                return type;
            }
        }
        return null;
    }

    /** The types a user may have meant: those named like {@code name} first, then the set's own, then imported ones. */
    private String listed(String name) {
        String suffix = "." + name.substring(name.lastIndexOf('.') + 1);
        List<String> candidates = types.values().stream()
                .filter(t -> !t.getOptions().getMapEntry())
                .map(Descriptor::getFullName)
                .sorted(Comparator.comparing((String n) -> !n.endsWith(suffix))
                        .thenComparing(n -> n.startsWith("google.protobuf.")))
                .toList();
        String shown = String.join(", ", candidates.subList(0, Math.min(MAX_LISTED, candidates.size())));
        return candidates.size() > MAX_LISTED ? shown + " and " + (candidates.size() - MAX_LISTED) + " more" : shown;
    }
}
