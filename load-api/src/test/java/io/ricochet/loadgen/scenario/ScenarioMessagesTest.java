package io.ricochet.loadgen.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A worker's shard as the typed message it is sent: read back equal, and refused by name when it cannot be run. */
class ScenarioMessagesTest {

    @ParameterizedTest
    @EnumSource(value = Command.class, names = {"ECHO", "RR", "CRR", "MASSIVE", "RPC", "REGISTER"})
    void everyShardReadsBackEqual(Command command) {
        Scenario whole = ScenarioFilesTest.changed(command);
        for (int i = 0; i < 2; i++) {
            Scenario shard = whole.shard(i, new double[] {1, 2});
            byte[] sent = ScenarioMessages.encode(shard).toByteArray();
            assertEquals(shard, ScenarioMessages.decode(sent));
        }
    }

    @Test
    void anotherVersionIsRefusedByName() {
        Scenario shard = ScenarioFilesTest.changed(Command.ECHO).shard(0, new double[] {1});
        byte[] future = ScenarioMessages.encode(shard).toBuilder().setVersion(Scenario.VERSION + 1).build().toByteArray();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScenarioMessages.decode(future));
        assertTrue(e.getMessage().startsWith("scenario version: 2 (expected: 1"), e.getMessage());
    }

    @Test
    void aMessageOverItsCapOrNotAMessageIsRefusedBeforeItIsRead() {
        byte[] large = new byte[ScenarioMessages.MAX_BYTES + 1];
        assertEquals("scenario: 1048577 bytes (expected: at most 1048576)",
                assertThrows(IllegalArgumentException.class, () -> ScenarioMessages.decode(large)).getMessage());
        byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScenarioMessages.decode(garbage)).getMessage()
                .startsWith("scenario: not a scenario message"));
    }

    @Test
    void aShardTooLargeToSendIsRefusedAtTheController() {
        Scenario huge = Scenario.builder(Command.ECHO).target(io.ricochet.loadgen.engine.Targets.parse("127.0.0.1:1"))
                .workload(new WorkloadSettings("w", List.of(), Map.of("data", "x".repeat(ScenarioMessages.MAX_BYTES)),
                        null, null, null, null, null, null, null, null, null)).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScenarioMessages.encode(huge));
        assertTrue(e.getMessage().startsWith("scenario: 1048"), e.getMessage());
    }

    @Test
    void aCommandNoWorkerRunsIsNotSent() {
        assertThrows(IllegalArgumentException.class,
                () -> ScenarioMessages.encode(ScenarioFilesTest.changed(Command.SWEEP)));
    }
}
