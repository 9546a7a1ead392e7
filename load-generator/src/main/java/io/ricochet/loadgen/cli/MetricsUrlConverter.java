package io.ricochet.loadgen.cli;

import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --scrape}: an absolute http(s) URL with a host, e.g. {@code http://127.0.0.1:9100/metrics}. */
final class MetricsUrlConverter implements ITypeConverter<URI> {
    @Override
    public URI convert(String value) {
        try {
            URI uri = new URI(value);
            if (("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // Reported below, as any other URL that is not one.
        }
        throw new TypeConversionException("'" + value + "' (expected: an http:// or https:// URL with a host, e.g. "
                + "http://127.0.0.1:9100/metrics)");
    }
}
