package io.ricochet.loadgen.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * How the report writes a figure of type double, in JSON and CSV alike: a whole one as an integer ({@code 142561280},
 * not {@code 1.4256128E8}), and one not measured, which the code holds as NaN, as null (an empty cell). Jackson's
 * default writes NaN as the string {@code "NaN"}, which no JSON reader takes as a number.
 */
final class FiguresModule extends SimpleModule {

    FiguresModule() {
        super("ricochet-figures");
        FigureSerializer figures = new FigureSerializer();
        addSerializer(Double.class, figures);
        addSerializer(double.class, figures);
    }

    private static final class FigureSerializer extends StdSerializer<Double> {
        /** Below 2^53 a double holds every whole number exactly. */
        private static final double WHOLE_LIMIT = 0x1p53;

        FigureSerializer() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            double v = value;
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                gen.writeNull();
            } else if (v == Math.rint(v) && Math.abs(v) < WHOLE_LIMIT) {
                gen.writeNumber((long) v);
            } else {
                gen.writeNumber(v);
            }
        }
    }
}
