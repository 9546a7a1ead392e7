package io.ricochet.loadgen.workload;

/**
 * Names a workload so the command line can run it from a jar: {@code --workload-jar kv.jar --workload kv}. The
 * generator finds providers through {@link java.util.ServiceLoader}: list the class in the jar's
 * {@code META-INF/services/io.ricochet.loadgen.workload.WorkloadProvider}, one per line.
 *
 * <pre>{@code
 * public final class KvProvider implements WorkloadProvider {
 *     public String name() {
 *         return "kv";
 *     }
 *
 *     public String description() {
 *         return "puts then gets over the text protocol; keys=N, get-share=0..1";
 *     }
 *
 *     public Workload create(WorkloadParameters parameters) {
 *         return new KvWorkload(parameters.intValue("keys", 1_000), parameters.doubleValue("get-share", 0.5));
 *     }
 * }
 * }</pre>
 *
 * A provider needs a public no-argument constructor. The generator also creates the workload once before any
 * connection is made, to check its parameters: an {@link IllegalArgumentException} from {@link #create} is a usage
 * error, printed on one line.
 */
public interface WorkloadProvider {

    /** The name {@code --workload} selects: letters, digits, '.', '_' and '-'. */
    String name();

    /** One line for {@code --workload list}. */
    default String description() {
        return "";
    }

    /** A workload set up as {@code parameters} ({@code --workload-param KEY=VALUE}, repeatable) say. */
    Workload create(WorkloadParameters parameters);
}
