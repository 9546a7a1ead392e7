package io.ricochet.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.ricochet.loadgen.report.ReportWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/** load-api's {@code summary.schema.json}, the one shape of every command's JSON summary, as a check for tests. */
final class SummarySchema {
    private static final Schema SCHEMA = load();

    private SummarySchema() {
    }

    private static Schema load() {
        try (InputStream in = ReportWriter.class.getResourceAsStream("summary.schema.json")) {
            if (in == null) {
                throw new AssertionError("summary.schema.json is not beside ReportWriter");
            }
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code summary}, checked: an {@link AssertionError} lists every way it is not of the schema. */
    static JsonNode valid(JsonNode summary) {
        List<Error> errors = SCHEMA.validate(summary);
        if (!errors.isEmpty()) {
            throw new AssertionError("summary not of summary.schema.json: " + errors + "\n" + summary);
        }
        return summary;
    }

    /** Whether {@code json} is a load command's summary, which must then be of the schema (not a plan, say). */
    static boolean isSummary(JsonNode json) {
        return json.isObject() && json.has("schema_version");
    }
}
