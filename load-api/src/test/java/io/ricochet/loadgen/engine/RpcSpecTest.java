package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.config.TransportKind;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RpcSpecTest {

    @Test
    void theWarmupRoundsOfEachClientAddUpToItsShareAndTheClientsToTheWarmup() {
        RpcSpec spec = new RpcSpec(new InetSocketAddress("127.0.0.1", 1), 7, 100, 1_003, 1, 0, Duration.ofSeconds(1), 1,
                0, 0, TransportKind.AUTO, 1, null, null);
        long all = 0;
        for (int client = 0; client < 7; client++) {
            long share = 0;
            long least = Long.MAX_VALUE;
            long most = 0;
            for (int round = 0; round < 5; round++) {
                long part = spec.warmupShareOf(client, round, 5);
                least = Math.min(least, part);
                most = Math.max(most, part);
                share += part;
            }
            assertTrue(most - least <= 1, "client " + client + ": rounds of " + least + ".." + most);
            assertEquals(1_003 / 7 + (client < 1_003 % 7 ? 1 : 0), share, "client " + client);
            all += share;
        }
        assertEquals(1_003, all);
    }
}
