package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Local workers load Netty's natives where the controller does: in an image, its read-only /app/native. A controller
 * container's workers started without it fell back from epoll to NIO under a noexec /tmp (found by ContainerImagesIT).
 */
class LocalExecutorTest {

    @Test
    void workersInheritTheControllersNativeLibraryPathUnlessTheirArgumentsSetOne() {
        String path = System.getProperty("java.library.path");
        assertTrue(LocalExecutor.inherited(List.of("-Xmx256m")).contains("-Djava.library.path=" + path));
        assertEquals(List.of(), LocalExecutor.inherited(List.of("-Djava.library.path=/elsewhere")).stream()
                .filter(a -> a.startsWith("-Djava.library.path=")).toList());
    }
}
