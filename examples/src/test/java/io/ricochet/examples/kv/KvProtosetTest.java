package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.ricochet.examples.kv.proto.GetReply;
import io.ricochet.examples.kv.proto.GetRequest;
import io.ricochet.examples.kv.proto.PutReply;
import io.ricochet.examples.kv.proto.PutRequest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The descriptor set the build writes, which users load to call kv.put and kv.get with no code. */
class KvProtosetTest {
    static final Path PROTOSET = Path.of("target/generated-resources/protobuf/descriptor-sets/kv.protoset");

    @Test
    void theBuildWritesKvProtoAsASelfContainedDescriptorSet() throws Exception {
        FileDescriptorSet set;
        try (InputStream in = Files.newInputStream(PROTOSET)) {
            set = FileDescriptorSet.parseFrom(in);
        }
        assertEquals(List.of("kv.proto"), set.getFileList().stream().map(FileDescriptorProto::getName).toList());
        FileDescriptorProto kv = set.getFile(0);
        assertEquals("ricochet.examples.kv", kv.getPackage());
        assertEquals(List.of("PutRequest", "PutReply", "GetRequest", "GetReply"),
                kv.getMessageTypeList().stream().map(DescriptorProto::getName).toList());
        // Every import is in the set (none today), so it builds with nothing else given.
        FileDescriptor built = FileDescriptor.buildFrom(kv, new FileDescriptor[0]);
        for (Descriptor compiled : List.of(PutRequest.getDescriptor(), PutReply.getDescriptor(),
                GetRequest.getDescriptor(), GetReply.getDescriptor())) {
            assertEquals(fields(compiled), fields(built.findMessageTypeByName(compiled.getName())), compiled.getName());
        }
    }

    private static List<String> fields(Descriptor message) {
        return message.getFields().stream().map(f -> f.getNumber() + " " + f.getName() + " " + f.getType()).toList();
    }
}
