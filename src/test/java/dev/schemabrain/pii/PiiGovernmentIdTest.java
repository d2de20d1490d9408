package dev.schemabrain.pii;

import dev.schemabrain.catalog.GovernmentIds;
import dev.schemabrain.catalog.SamplePolicy;
import dev.schemabrain.catalog.ValuePolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 51: government identifiers under names that abbreviate them or say nothing, and written without their
 * usual separators; look-alikes (order, ticket, routing numbers, names containing pan, sin, tin) stay untagged.
 */
class PiiGovernmentIdTest {

    private static PiiTag tag(String column, String type, String... samples) {
        return PiiClassifier.classify(column, type, List.of(samples), "import_rows", null);
    }

    private static boolean government(PiiTag tag) {
        return tag.categories().contains(PiiCategory.GOVERNMENT_ID);
    }

    @Test
    void abbreviatedAndForeignNamesAreGovernmentIds() {
        List<String> names = List.of("dl_no", "dl_num", "drv_lic", "lic_nbr", "lic_num", "soc_sec_no", "soc_ins_no",
                "ni_no", "ni_number", "tax_ref", "tax_reference", "utr", "itin", "ptin", "voter_reg_no", "pp_no",
                "reisepass_nr", "sv_nummer", "steuerliche_idnr", "permis", "führerschein", "burgerservicenummer",
                "zhengjian_haoma", "cod_fisc", "pasaporte", "passeport", "reisepass", "nie", "nif", "cpf", "steuer_id",
                "steuernummer", "codice_fiscale", "nino", "bsn", "aadhaar", "nir", "insee", "sin", "ssn",
                "sozialversicherungsnummer", "driverLicenseNo");
        assertAll(names.stream().map(n -> () -> assertTrue(government(tag(n, "text")), n + " is a government id")));
    }

    @Test
    void wordsThatMerelyContainTheAcronymsAreNot() {
        List<String> names = List.of("company", "single", "setting", "tinted_windows", "spin_count", "destination",
                "basin", "expansion_plan", "pantry_item", "continent", "raisin_type", "licence_class", "lic_state",
                "lic_exp", "dl_st", "single_parent", "utrecht_office", "sinking_fund", "nominee", "pineapple",
                "tin_can_count", "panel_size", "permission", "passenger_count");
        assertAll(names.stream().map(n -> () -> assertFalse(tag(n, "text").tagged(), n + " is not PII: " + tag(n, "text"))));
    }

    /** Written without separators under names that say nothing, and with them: the column is tagged either way. */
    @Test
    void valuesWithoutSeparatorsUnderBadNames() {
        String[][] columns = {
                {"us_ssn_itin", "601855902", "397366618", "714011867", "030694231", "034622911"},
                {"us_ssn_itin", "601-85-5902", "397 36 6618", "714011867", "030694231"},
                {"ca_sin", "599777604", "264618166", "347151516", "652664731"},
                {"nl_bsn", "111222333", "794934882", "326466198", "834110337"},
                {"in_aadhaar", "275007397478", "502035942330", "371906050499"},
                {"br_cpf", "52998224725", "41706441665", "40007421087"},
                {"de_steuer_id", "57905381628", "97750421873"},
                {"fr_nir", "198128670602936", "290036764924114"},
                {"cn_resident_id", "11010519491231002X", "330106197511121851"},
                {"it_codice_fiscale", "RSSMRA85T10A562S", "CCDCBT96A12D681R"},
                {"es_dni_nie", "12345678Z", "X1234567L"},
                {"us_fl_driver_licence", "C928899741222", "Q397354523414", "D861950831422"},
                {"us_ca_driver_licence", "K3286425", "J3722386", "C7633249"}};
        for (String[] c : columns) {
            List<String> values = List.of(c).subList(1, c.length);
            for (String name : List.of("col7", "ref", "field_3", "value")) {
                assertEquals(c[0], GovernmentIds.column(name, values).orElse(null), name + " " + values);
                PiiTag tag = PiiClassifier.classify(name, "text", values, "import_batch", null);
                assertTrue(government(tag), name + " " + values + " " + tag);
            }
            assertEquals(List.of("<national id>"), SamplePolicy.pick("col7", values), "only the placeholder is stored");
            assertEquals(List.of(), ValuePolicy.pick("col7", values), "nothing is indexed");
        }
    }

    @Test
    void lookAlikesAreNotGovernmentIds() {
        String[][] columns = {
                {"col2", "400123456", "400123457", "400123458", "400123461", "400123470"},   // consecutive order numbers
                {"ticket_no", "483920175", "102938475", "564738291", "847362910", "293847561"},
                {"ref", "021000021", "026009593", "121000358", "011000015", "322271627"},     // bank routing numbers
                {"col9", "483920175", "102938475", "961238291", "847362910", "293847561"},   // 961-23: neither SSN nor ITIN
                {"col5", "2125550142", "3105550199", "6465550123"},                           // phone numbers
                {"col6", "4006381333931", "5012345678900", "7622210449283"},                 // EAN-13
                {"sku", "P1234567", "P1234568", "P1234575"},
                {"col8", "P1234567", "P1234568", "P1234575"},
                {"importer_ein", "52-7033090", "94-2237556", "46-2224585"},
                {"col3", "1745650000", "1745653600", "1745657200"},                           // epoch seconds
                {"col4", "100000001", "100000002", "100000003"}};
        for (String[] c : columns) {
            List<String> values = List.of(c).subList(1, c.length);
            PiiTag tag = PiiClassifier.classify(c[0], "text", values, "import_batch", null);
            assertFalse(government(tag), c[0] + " " + values + " " + tag);
            assertFalse(GovernmentIds.column(c[0], values).isPresent(), c[0] + " " + values);
        }
    }

    /**
     * Random nine-digit numbers read together: five of them pass the SSN and ITIN validity rules about two times in
     * three (nothing tells them apart from SSNs, and tagging them only withholds their samples); a hundred, as
     * sampling reads them, rarely do, since some fall on an area or group no SSN or ITIN has.
     */
    @Test
    void randomNumbersRarelyPassWhenManyAreRead() {
        Random random = new Random(51);
        int passedHundred = 0;
        for (int trial = 0; trial < 1000; trial++) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                values.add(Integer.toString(100_000_000 + random.nextInt(900_000_000)));
            }
            passedHundred += GovernmentIds.column("col1", values).isPresent() ? 1 : 0;
        }
        System.err.println("random columns of 100 nine-digit numbers taken for government ids: " + passedHundred + " of 1000");
        assertTrue(passedHundred <= 10, "random columns of 100 taken for government ids: " + passedHundred + " of 1000");
    }
}
