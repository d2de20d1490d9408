package dev.schemabrain.mcp.tools;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The analyst blind set's two invented schemas (issue 45) and their data, generated deterministically (a fixed seed
 * per schema, java.util.Random, whose sequence the JDK specifies): the DDL is
 * {@code src/test/resources/analyst-blind/<schema>.sql}, the rows are made here as INSERT statements inside one
 * transaction. Written for the set, before it was scored, with no look at the gate's code.
 *
 * <p>Both schemas hold a few deliberately small groups (a city, a plan, a tier, a room, a category, a new branch with
 * fewer than five people behind it), so that the small-group rule has something to leave out; everything else is
 * large.
 */
final class AnalystBlindData {

    private AnalystBlindData() {
    }

    static final String[] FIRST = {"Ada", "Bram", "Chiara", "Dev", "Elin", "Farid", "Greta", "Hugo", "Ines", "Jonas",
            "Kaja", "Luca", "Maren", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Stig", "Tove", "Umar", "Vera", "Wim",
            "Xenia", "Yusuf", "Zora"};
    static final String[] LAST = {"Aalto", "Berg", "Castro", "Dahl", "Eriksen", "Fischer", "Gallo", "Holm", "Ivanova",
            "Jensen", "Kovac", "Lind", "Moreau", "Novak", "Olsen", "Petrov", "Quist", "Rossi", "Sandberg", "Tanaka",
            "Ulrich", "Varga", "Weber", "Yilmaz", "Zeller"};

    /** The DDL and the rows of {@code schema} ("pharmacy", "wineclub"; the second set's in {@link AnalystBlindData2}), in order. */
    static List<String> statements(String schema) throws IOException {
        List<String> out = new ArrayList<>(ddl(schema));
        out.add("BEGIN");
        switch (schema) {
            case "pharmacy" -> pharmacy(out);
            case "wineclub" -> wineclub(out);
            case "bikeshare" -> AnalystBlindData2.bikeshare(out);
            case "skiresort" -> AnalystBlindData2.skiresort(out);
            default -> throw new IllegalArgumentException(schema);
        }
        out.add("COMMIT");
        return out;
    }

    static List<String> ddl(String schema) throws IOException {
        try (InputStream in = AnalystBlindData.class.getResourceAsStream("/analyst-blind/" + schema + ".sql")) {
            if (in == null) {
                throw new IOException("no DDL for " + schema);
            }
            StringBuilder text = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.strip().startsWith("--")) {
                    text.append(line).append('\n');
                }
            }
            List<String> out = new ArrayList<>();
            for (String s : text.toString().split(";")) {
                if (!s.isBlank()) {
                    out.add(s.strip());
                }
            }
            return out;
        }
    }

    static String money(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String q(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static LocalDate day2024(Random r) {
        return LocalDate.of(2024, 1, 1).plusDays(r.nextInt(366));
    }

    static String phone(Random r) {
        return String.format(Locale.ROOT, "+1 555 %03d %04d", r.nextInt(1000), r.nextInt(10000));
    }

    // ---------------------------------------------------------------- pharmacy

    static void pharmacy(List<String> out) {
        Random r = new Random(4501);
        String[][] branches = {
                {"Central Plaza", "Riverton", "2015-03-01"}, {"Northgate", "Riverton", "2017-06-12"},
                {"Old Mill", "Ashford", "2016-09-30"}, {"Lakeside", "Brookfield", "2019-04-02"},
                {"Station Road", "Ashford", "2021-11-15"}, {"Harbor Kiosk", "Port Elm", "2024-09-15"}};
        for (int i = 0; i < branches.length; i++) {
            out.add("INSERT INTO branch VALUES (" + (i + 1) + ", " + q(branches[i][0]) + ", " + q(branches[i][1]) + ", "
                    + q(branches[i][2]) + ")");
        }
        String[][] suppliers = {{"Medora Labs", "Germany"}, {"Pinecrest Pharma", "USA"}, {"Aurel Generics", "India"},
                {"Norvik Health", "Sweden"}, {"Castellan Farmaceutici", "Italy"}};
        for (int i = 0; i < suppliers.length; i++) {
            out.add("INSERT INTO supplier VALUES (" + (i + 1) + ", " + q(suppliers[i][0]) + ", " + q(suppliers[i][1]) + ")");
        }
        // 39 drugs in six categories (ids 1..39), and one rare-disease drug (id 40).
        String[] categories = {"Cardiovascular", "Antibiotic", "Analgesic", "Respiratory", "Dermatology", "Diabetes"};
        String[] forms = {"tablet", "capsule", "tablet", "inhaler", "cream", "tablet"};
        String[] stems = {"Carv", "Lisin", "Amlo", "Metop", "Atorv", "Rosu", "Amox", "Doxy", "Azith", "Cefal", "Clari",
                "Ibu", "Napro", "Parac", "Trama", "Diclo", "Salbu", "Budes", "Monte", "Flutic", "Tiotr", "Hydro", "Clobe",
                "Mupir", "Terbi", "Ketoc", "Metf", "Glicl", "Sitag", "Empag", "Piogl", "Valsa", "Clopi", "Warf", "Cipro",
                "Levo", "Aspi", "Brom", "Calci"};
        String[] suffixes = {"ol", "pril", "dine", "lor", "statin", "cin", "fen", "mide", "sone", "zole"};
        double[] prices = new double[41];
        int[] categoryOf = new int[41];
        for (int i = 1; i <= 39; i++) {
            int c = (i - 1) % categories.length;
            categoryOf[i] = c;
            prices[i] = Math.round((1.5 + r.nextDouble() * 40) * 100) / 100.0;
            out.add("INSERT INTO drug VALUES (" + i + ", " + q(stems[i - 1] + suffixes[i % suffixes.length]) + ", "
                    + q(categories[c]) + ", " + q(forms[c]) + ", " + (1 + r.nextInt(suppliers.length)) + ", "
                    + money(prices[i]) + ", " + (r.nextInt(10) < 6 ? 1 : 0) + ")");
        }
        prices[40] = 389.00;
        categoryOf[40] = -1;
        out.add("INSERT INTO drug VALUES (40, 'Orphanex', 'Rare disease', 'infusion', 4, 389.00, 0)");

        // 600 patients; Lindqvist Island has three, the Employer Direct plan four.
        String[] cities = {"Riverton", "Riverton", "Riverton", "Ashford", "Ashford", "Brookfield", "Brookfield", "Millbrook"};
        int[] homeOf = new int[601];
        String[] plans = {"Public", "Public", "Silver", "Silver", "Gold", "Platinum"};
        String[] planOf = new String[601];
        for (int p = 1; p <= 600; p++) {
            String city = p % 200 == 7 ? "Lindqvist Island" : p <= 12 && p % 4 == 0 ? "Port Elm" : cities[r.nextInt(cities.length)];
            int home = switch (city) {
                case "Riverton" -> r.nextBoolean() ? 1 : 2;
                case "Ashford" -> r.nextBoolean() ? 3 : 5;
                case "Brookfield", "Millbrook" -> 4;
                default -> 1;
            };
            homeOf[p] = home;
            String plan = p % 150 == 33 ? "Employer Direct" : plans[r.nextInt(plans.length)];
            planOf[p] = plan;
            String first = FIRST[r.nextInt(FIRST.length)];
            String last = LAST[r.nextInt(LAST.length)];
            out.add("INSERT INTO patient VALUES (" + p + ", " + q(first) + ", " + q(last) + ", "
                    + q(first.toLowerCase(Locale.ROOT) + "." + last.toLowerCase(Locale.ROOT) + p + "@mailbox.example") + ", "
                    + q(phone(r)) + ", " + q(LocalDate.of(1940, 1, 1).plusDays(r.nextInt(65 * 365)).toString()) + ", "
                    + q(city) + ", " + q(plan) + ", " + home + ")");
        }

        // Prescriptions; Oncology only for patients 10, 20 and 30 (the rare drug for 10 and 20).
        String[] specialties = {"General practice", "General practice", "General practice", "Cardiology",
                "Dermatology", "Pediatrics", "Endocrinology", "Pulmonology"};
        int dispensingId = 0;
        int prescriptionId = 0;
        for (int n = 0; n < 1800; n++) {
            prescriptionId++;
            int patient = 1 + r.nextInt(600);
            String specialty = specialties[r.nextInt(specialties.length)];
            if (n % 300 == 5) {
                patient = new int[] {10, 20, 30}[(n / 300) % 3];
                specialty = "Oncology";
            }
            LocalDate issued = day2024(r);
            int refills = r.nextInt(4);
            out.add("INSERT INTO prescription VALUES (" + prescriptionId + ", " + patient + ", " + q(issued.toString())
                    + ", " + q(specialty) + ", " + refills + ")");
            int category = switch (specialty) {
                case "Cardiology" -> 0;
                case "Dermatology" -> 4;
                case "Endocrinology" -> 5;
                case "Pulmonology" -> 3;
                case "Pediatrics" -> r.nextBoolean() ? 1 : 2;
                default -> r.nextInt(categories.length);
            };
            int drug;
            if (specialty.equals("Oncology")) {
                drug = patient == 30 ? 3 : 40;
            } else {
                drug = 1 + category + categories.length * r.nextInt(39 / categories.length + (category < 39 % categories.length ? 1 : 0));
            }
            int fills = 1 + Math.min(refills, r.nextInt(3));
            for (int f = 0; f < fills; f++) {
                dispensingId++;
                LocalDate on = issued.plusDays(f * 30L + r.nextInt(4));
                int branch = r.nextInt(10) == 0 ? 1 + r.nextInt(5) : homeOf[patient];
                // The kiosk opened in September 2024: only the three Port Elm patients use it.
                if (patient <= 12 && patient % 4 == 0 && !on.isBefore(LocalDate.of(2024, 9, 15))) {
                    branch = 6;
                }
                int quantity = categoryOf[drug] == 1 ? 14 : new int[] {30, 30, 60, 90}[r.nextInt(4)];
                if (drug == 40) {
                    quantity = 1;
                }
                double amount = Math.round(quantity * prices[drug] * (0.8 + r.nextDouble() * 0.2) * 100) / 100.0;
                double copayShare = switch (planOf[patient]) {
                    case "Public" -> 0.1;
                    case "Silver" -> 0.25;
                    case "Gold" -> 0.15;
                    case "Platinum" -> 0.05;
                    default -> 0.2;
                };
                out.add("INSERT INTO dispensing VALUES (" + dispensingId + ", " + prescriptionId + ", " + drug + ", " + branch
                        + ", " + q(on.toString()) + ", " + quantity + ", " + money(amount) + ", "
                        + money(Math.round(amount * copayShare * 100) / 100.0) + ")");
            }
        }
        // Over-the-counter sales, one row per item, no key: analgesics, respiratory, dermatology.
        int[] counterCategories = {2, 3, 4};
        for (int n = 0; n < 2000; n++) {
            int patient = 1 + r.nextInt(600);
            int category = counterCategories[r.nextInt(counterCategories.length)];
            int drug = 1 + category + categories.length * r.nextInt(6);
            LocalDate on = day2024(r);
            int branch = homeOf[patient];
            if (patient <= 12 && patient % 4 == 0 && !on.isBefore(LocalDate.of(2024, 9, 15))) {
                branch = 6;
            }
            int quantity = 1 + r.nextInt(3);
            out.add("INSERT INTO counter_sale VALUES (" + patient + ", " + branch + ", " + drug + ", " + q(on.toString())
                    + ", " + quantity + ", " + money(quantity * prices[drug]) + ")");
        }
    }

    // ---------------------------------------------------------------- wine club

    static void wineclub(List<String> out) {
        Random r = new Random(4502);
        String[][] regions = {{"Douro", "Portugal"}, {"Rioja", "Spain"}, {"Mosel", "Germany"}, {"Barossa", "Australia"},
                {"Napa", "USA"}, {"Willamette", "USA"}, {"Marlborough", "New Zealand"}, {"Tokaj", "Hungary"}};
        for (int i = 0; i < regions.length; i++) {
            out.add("INSERT INTO region VALUES (" + (i + 1) + ", " + q(regions[i][0]) + ", " + q(regions[i][1]) + ")");
        }
        // varietal, color, region (1-based)
        String[][] varietals = {{"Touriga Nacional", "red", "1"}, {"Tempranillo", "red", "2"}, {"Riesling", "white", "3"},
                {"Shiraz", "red", "4"}, {"Cabernet Sauvignon", "red", "5"}, {"Pinot Noir", "red", "6"},
                {"Sauvignon Blanc", "white", "7"}, {"Grenache Rose", "rose", "2"}, {"Chardonnay", "white", "5"}};
        String[] labels = {"Estate", "Reserve", "Old Vines", "Hillside", "River Terrace", "Single Block"};
        double[] price = new double[40];
        int wines = 0;
        for (int v = 0; v < varietals.length; v++) {
            for (int k = 0; k < 4; k++) {
                wines++;
                price[wines] = Math.round((12 + r.nextDouble() * 70) * 100) / 100.0;
                out.add("INSERT INTO wine VALUES (" + wines + ", " + q(varietals[v][0] + " " + labels[(v + k) % labels.length])
                        + ", " + q(varietals[v][0]) + ", " + q(varietals[v][1]) + ", " + (2008 + r.nextInt(15)) + ", "
                        + varietals[v][2] + ", " + money(price[wines]) + ", "
                        + money(Math.round(price[wines] * (0.4 + r.nextDouble() * 0.2) * 100) / 100.0) + ")");
            }
        }
        // Wine 37: the one sweet Tokaji, bought by three members only.
        wines++;
        price[wines] = 64.00;
        out.add("INSERT INTO wine VALUES (37, 'Tokaji Aszu 5 Puttonyos', 'Furmint', 'sweet', 2013, 8, 64.00, 31.50)");
        String[] warehouses = {"Cellar A", "Cellar B", "Offsite"};
        for (int w = 1; w <= wines; w++) {
            int first = r.nextInt(3);
            out.add("INSERT INTO stock VALUES (" + w + ", " + q(warehouses[first]) + ", " + (12 * (1 + r.nextInt(40))) + ")");
            if (r.nextBoolean()) {
                out.add("INSERT INTO stock VALUES (" + w + ", " + q(warehouses[(first + 1) % 3]) + ", "
                        + (6 * (1 + r.nextInt(30))) + ")");
            }
        }
        // 500 members; Kettle Bay has four, the Founder tier three.
        String[] cities = {"Greenvale", "Greenvale", "Stonebridge", "Stonebridge", "Fairhaven", "Westmoor"};
        String[] tiers = {"Classic", "Classic", "Classic", "Reserve", "Reserve", "Collector"};
        String[] tierOf = new String[501];
        for (int m = 1; m <= 500; m++) {
            String city = m % 125 == 17 ? "Kettle Bay" : cities[r.nextInt(cities.length)];
            String tier = m == 3 || m == 250 || m == 499 ? "Founder" : tiers[r.nextInt(tiers.length)];
            tierOf[m] = tier;
            String first = FIRST[r.nextInt(FIRST.length)];
            String last = LAST[r.nextInt(LAST.length)];
            LocalDate joined = LocalDate.of(2016, 1, 1).plusDays(r.nextInt(9 * 365));
            out.add("INSERT INTO member VALUES (" + m + ", " + q(first) + ", " + q(last) + ", "
                    + q(last.toLowerCase(Locale.ROOT) + "." + first.toLowerCase(Locale.ROOT) + m + "@post.example") + ", "
                    + q(phone(r)) + ", " + q(city) + ", " + q(tier) + ", " + q(joined.toString()) + ")");
        }
        String[] channels = {"web", "web", "web", "phone", "tasting room", "club shipment", "club shipment"};
        int[] tokajiBuyers = {11, 22, 33};
        for (int o = 1; o <= 1500; o++) {
            int member = 1 + r.nextInt(500);
            if (o % 100 == 50) {
                member = tokajiBuyers[(o / 100) % 3];
            }
            LocalDate on = day2024(r);
            out.add("INSERT INTO club_order VALUES (" + o + ", " + member + ", " + q(on.toString()) + ", "
                    + q(channels[r.nextInt(channels.length)]) + ", " + money(r.nextInt(3) * 7.5) + ")");
            int lines = 1 + r.nextInt(4);
            double discount = switch (tierOf[member]) {
                case "Reserve" -> 0.9;
                case "Collector" -> 0.85;
                case "Founder" -> 0.75;
                default -> 1.0;
            };
            for (int l = 1; l <= lines; l++) {
                int wine = o % 100 == 50 && l == 1 ? 37 : 1 + r.nextInt(36);
                int bottles = new int[] {1, 2, 3, 6, 6, 12}[r.nextInt(6)];
                out.add("INSERT INTO order_line VALUES (" + o + ", " + l + ", " + wine + ", " + bottles + ", "
                        + money(Math.round(price[wine] * discount * 100) / 100.0) + ")");
            }
        }
        // Tasting room visits, no key; the Private Cellar is booked by three members.
        String[] rooms = {"Main Hall", "Main Hall", "Barrel Room", "Terrace"};
        for (int n = 0; n < 1200; n++) {
            int member = 1 + r.nextInt(500);
            String room = rooms[r.nextInt(rooms.length)];
            if (n % 60 == 13) {
                member = new int[] {3, 250, 499}[(n / 60) % 3];
                room = "Private Cellar";
            }
            int guests = r.nextInt(5);
            out.add("INSERT INTO tasting_visit VALUES (" + member + ", " + q(day2024(r).toString()) + ", " + q(room) + ", "
                    + guests + ", " + money(Math.round((15 + r.nextDouble() * 120) * (1 + guests * 0.6) * 100) / 100.0) + ")");
        }
    }
}
