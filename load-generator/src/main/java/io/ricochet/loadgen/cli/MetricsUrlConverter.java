package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Values;
import java.net.URI;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --scrape}: an absolute http(s) URL with a host, e.g. {@code http://127.0.0.1:9100/metrics}. */
final class MetricsUrlConverter implements ITypeConverter<URI> {
    @Override
    public URI convert(String value) {
        try {
            return Values.metricsUrl(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
