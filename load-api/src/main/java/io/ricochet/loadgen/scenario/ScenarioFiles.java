package io.ricochet.loadgen.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.ricochet.loadgen.files.InputFileException;
import io.ricochet.loadgen.files.InputFiles;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Scenario files: a {@link Scenario} read from YAML or JSON, and written as YAML (what {@code --print-scenario} prints)
 * or JSON. Every key is the flag's name with underscores ({@code --connect-rate} is {@code connect_rate}); settings of
 * one kind sit in a section ({@code workload:}, {@code tls:}, {@code noise:}, {@code ramp:}, {@code sweep:},
 * {@code udp_stream:}); values are written as the flags take them ({@code 10s}, {@code 20k/s}, {@code 1k..4k}). Keys
 * left out keep the command's defaults. A problem is one line naming the file, the line and column, and the key.
 *
 * <pre>{@code
 * # scenario.yaml
 * command: echo
 * target: 127.0.0.1:7000
 * connections: 100
 * rate: 20k/s
 * duration: 30s
 * workload:
 *   payload: "get k{{conn}}"
 *   expect: "regex:^(value |missing)"
 * thresholds: ["p99<5ms", "bad==0"]
 * }</pre>
 *
 * <pre>{@code
 * Scenario s = ScenarioFiles.read(Path.of("scenario.yaml"), null);
 * String again = ScenarioFiles.yaml(s);     // the resolved scenario, every key its command takes
 * }</pre>
 */
public final class ScenarioFiles {
    /** A scenario is a page of settings; this bounds what is read before anything is parsed. */
    public static final int MAX_FILE_BYTES = 1 << 20;

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build());
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScenarioFiles() {
    }

    /**
     * The settings of {@code s} that its command does not take but that differ from that command's defaults, each as
     * {@code key: value}; empty for a scenario from flags or a file, which cannot hold one. A builder can: a rate set
     * on a scenario that is then made crr's.
     */
    public static List<String> ignoredSettings(Scenario s) {
        return ScenarioWriter.ignored(s, Scenario.builder(s.command()).build());
    }

    /**
     * The scenario in {@code file}; {@code command} is the command it was given to, whose name the file may then leave
     * out (null: the file must name it). A file that cannot be read, is not YAML or JSON, or holds a key or value the
     * scenario does not take is a {@link ScenarioFileException} of one line.
     */
    public static Scenario read(Path file, Command command) {
        return read(file.toString(), text(file), command);
    }

    /** The scenario in {@code text}, which came from {@code name}: as {@link #read(Path, Command)}. */
    public static Scenario read(String name, String text, Command command) {
        return ScenarioReader.read(LocatedTree.parse(name, text), command);
    }

    /**
     * A scenario file under a command's flags: its settings in a builder, onto which a command line sets what its
     * flags give, and the means to name a problem found when the builder is built at its key's line and column.
     *
     * <pre>{@code
     * ScenarioFiles.Base base = ScenarioFiles.base(Path.of("scenario.yaml"), Command.ECHO);
     * Scenario.Builder b = base.builder().duration(Duration.ofSeconds(30));   // --duration 30s over the file's
     * try {
     *     return b.build();
     * } catch (IllegalArgumentException e) {
     *     throw base.located(e);
     * }
     * }</pre>
     */
    public static final class Base {
        private final ScenarioReader reader;
        private final Scenario.Builder builder;

        private Base(ScenarioReader reader, Scenario.Builder builder) {
            this.reader = reader;
            this.builder = builder;
        }

        /** The file's settings over its command's defaults. */
        public Scenario.Builder builder() {
            return builder;
        }

        /** {@code e}, a refusal by the scenario built from it, at the line and column of the key it names. */
        public ScenarioFileException located(IllegalArgumentException e) {
            return reader.located(e);
        }

        /** Whether the file gives {@code key} (dotted: {@code tls.ca}). */
        public boolean gives(String key) {
            return reader.gives(key);
        }
    }

    /** The settings of {@code file} as a {@link Base} for {@code command}'s flags; a bad key or value refused here. */
    public static Base base(Path file, Command command) {
        ScenarioReader reader = ScenarioReader.of(LocatedTree.parse(file.toString(), text(file)));
        return new Base(reader, reader.builder(command));
    }

    /** {@code s} as YAML: every key its command takes, in the documented order. */
    public static String yaml(Scenario s) {
        return write(YAML, s);
    }

    /** {@code s} as a tree of the file's keys, for a report's config.json. */
    public static com.fasterxml.jackson.databind.node.ObjectNode tree(Scenario s) {
        return ScenarioWriter.tree(s);
    }

    /** {@code s} as JSON, indented. */
    public static String json(Scenario s) {
        return write(JSON, s) + System.lineSeparator();
    }

    private static String write(ObjectMapper mapper, Scenario s) {
        try {
            return mapper.writeValueAsString(ScenarioWriter.tree(s));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's text: at most {@link #MAX_FILE_BYTES}, UTF-8. */
    private static String text(Path file) {
        String name = file.toString();
        byte[] bytes;
        try {
            bytes = InputFiles.read(file, MAX_FILE_BYTES);
        } catch (InputFileException e) {
            throw new ScenarioFileException(name, null, "", e.reason());
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ScenarioFileException(name, null, "", "not text (expected: YAML or JSON in UTF-8)");
        }
    }
}
