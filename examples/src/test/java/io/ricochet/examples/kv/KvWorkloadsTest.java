package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.run.WorkloadCatalog;
import io.ricochet.loadgen.workload.Workload;
import io.ricochet.loadgen.workload.WorkloadParameters;
import io.ricochet.loadgen.workload.WorkloadProvider;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KvWorkloadsTest {

    @Test
    void theGeneratorFindsBothProvidersByName() {
        Map<String, Class<?>> found = new TreeMap<>();
        for (WorkloadProvider provider : ServiceLoader.load(WorkloadProvider.class)) {
            found.put(provider.name(), provider.create(WorkloadParameters.none()).getClass());
        }
        assertEquals(Map.of("kv-rpc", KvRpcWorkload.class, "kv-text", KvTextWorkload.class), found);
    }

    static Stream<Arguments> providers() {
        return Stream.of(Arguments.of(new KvWorkloads.Text(), KvTextWorkload.class),
                Arguments.of(new KvWorkloads.Rpc(), KvRpcWorkload.class));
    }

    @ParameterizedTest
    @MethodSource("providers")
    void parametersAreReadWithTheirDefaults(WorkloadProvider provider, Class<? extends Workload> type) {
        Workload defaults = provider.create(WorkloadParameters.none());
        assertInstanceOf(type, defaults);
        assertEquals(KvModel.bytesPerConnection(KvWorkloads.DEFAULT_KEYS), defaults.bytesPerConnection().getAsLong());
        WorkloadParameters given = WorkloadParameters.of(Map.of("keys", "1000", "get-share", "0.9", "get-shrae", "1"));
        Workload more = provider.create(given);
        assertEquals(KvModel.bytesPerConnection(1_000), more.bytesPerConnection().getAsLong());
        assertEquals(Set.of("get-shrae"), given.unread(), "a misspelt parameter is left unread, for the generator to refuse");
    }

    /** A misspelt parameter is refused with the ones the workload takes, so the meant one can be seen. */
    @Test
    void aMisspeltParameterIsRefusedWithTheOnesItTakes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadCatalog.load(List.of())
                .create("kv-text", Map.of("get-shrae", "1"), Workload.class, "a framed workload"));
        assertTrue(e.getMessage().endsWith("get-shrae: kv-text does not take it (expected: one of keys, get-share)"),
                e.getMessage());
    }

    static Stream<Arguments> invalidParameters() {
        return Stream.of(
                Arguments.of("keys", "0", "keys: 0 (expected: 1..100000)"),
                Arguments.of("keys", "100001", "keys: 100001 (expected: 1..100000)"),
                Arguments.of("keys", "many", "keys: many (expected: an integer)"),
                Arguments.of("get-share", "-0.1", "get-share: -0.1 (expected: 0..1)"),
                Arguments.of("get-share", "1.5", "get-share: 1.5 (expected: 0..1)"),
                Arguments.of("get-share", "NaN", "get-share: NaN (expected: a finite number)"),
                Arguments.of("get-share", "half", "get-share: half (expected: a number)"));
    }

    @ParameterizedTest
    @MethodSource("invalidParameters")
    void anInvalidValueIsRefusedNamingItsParameter(String parameter, String value, String message) {
        for (WorkloadProvider provider : new WorkloadProvider[] {new KvWorkloads.Text(), new KvWorkloads.Rpc()}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> provider.create(WorkloadParameters.of(Map.of(parameter, value))));
            assertEquals(message, e.getMessage(), provider.name());
        }
    }
}
