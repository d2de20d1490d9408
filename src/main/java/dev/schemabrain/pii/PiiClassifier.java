package dev.schemabrain.pii;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.SamplePolicy;
import dev.schemabrain.catalog.Table;

import java.util.List;
import java.util.Set;

/** Interim rules until the full classifier lands: sensitive names are credentials, e-mail names contact. */
public final class PiiClassifier {

    public static final String VERSION = "0";

    private PiiClassifier() {
    }

    public static PiiTag classify(String columnName, String dataType, List<String> samples, String tableName) {
        if (SamplePolicy.looksSensitive(columnName)) {
            return PiiTag.of(Set.of(PiiCategory.CREDENTIAL), List.of("name:sensitive"));
        }
        if (columnName.toLowerCase(java.util.Locale.ROOT).contains("email")) {
            return PiiTag.of(Set.of(PiiCategory.CONTACT), List.of("name:email"));
        }
        return PiiTag.NONE;
    }

    public static PiiTag classify(Table table, Column column) {
        return classify(column.name(), column.dataType(), column.samples(), table.name().table());
    }
}
