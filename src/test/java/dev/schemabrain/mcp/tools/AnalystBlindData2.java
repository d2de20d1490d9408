package dev.schemabrain.mcp.tools;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static dev.schemabrain.mcp.tools.AnalystBlindData.FIRST;
import static dev.schemabrain.mcp.tools.AnalystBlindData.LAST;
import static dev.schemabrain.mcp.tools.AnalystBlindData.day2024;
import static dev.schemabrain.mcp.tools.AnalystBlindData.money;
import static dev.schemabrain.mcp.tools.AnalystBlindData.phone;
import static dev.schemabrain.mcp.tools.AnalystBlindData.q;

/**
 * The second analyst blind set's two invented schemas (issue 45): a city bicycle-sharing service and a ski resort,
 * their DDL in {@code src/test/resources/analyst-blind/<schema>.sql}, their rows made here deterministically (a fixed
 * seed per schema). Written, with the statements, before the set was first scored, with no look at the gate's code.
 *
 * <p>Deliberately small groups (fewer than five people behind them): bikeshare's Harbour Point district (three riders)
 * and its Pier Pop-up station, the Corporate plan (four riders), the cargo bikes (three riders), vandalism reports
 * (two riders), the smartwatch app (three riders); the ski resort's guests from Liechtenstein (three), the Platinum
 * level (four), the Season Family pass (four buyers), the travel-agent channel (three buyers), the Summit T-bar and
 * its Summit sector (three guests), splitboard rentals (two guests).
 */
final class AnalystBlindData2 {

    private AnalystBlindData2() {
    }

    // ---------------------------------------------------------------- bicycle sharing

    static void bikeshare(List<String> out) {
        Random r = new Random(4511);
        String[][] stations = {
                {"Cathedral Square", "Old Town", "2018-04-01"}, {"Guild Hall", "Old Town", "2018-04-01"},
                {"Clock Tower", "Old Town", "2019-05-20"}, {"Boathouse", "Riverside", "2018-04-01"},
                {"Mill Bridge", "Riverside", "2020-03-15"}, {"Willow Quay", "Riverside", "2021-06-01"},
                {"Library Lawn", "University", "2018-09-01"}, {"Science Park", "University", "2022-02-10"},
                {"Fish Market", "Market", "2019-05-20"}, {"Corn Exchange", "Market", "2020-03-15"},
                {"Eastfield Depot", "Eastfield", "2023-07-01"}, {"Pier Pop-up", "Harbour Point", "2024-11-01"}};
        for (int i = 0; i < stations.length; i++) {
            out.add("INSERT INTO station VALUES (" + (i + 1) + ", " + q(stations[i][0]) + ", " + q(stations[i][1]) + ", "
                    + (i == 11 ? 8 : 12 + 2 * r.nextInt(10)) + ", " + q(stations[i][2]) + ")");
        }
        // 120 classic bikes (1..120), 60 electric (121..180), three cargo bikes (181..183).
        String[] kindOf = new String[184];
        for (int b = 1; b <= 183; b++) {
            String kind = b <= 120 ? "classic" : b <= 180 ? "electric" : "cargo";
            kindOf[b] = kind;
            String model = switch (kind) {
                case "classic" -> r.nextBoolean() ? "Urban 3" : "Urban 7";
                case "electric" -> r.nextInt(3) == 0 ? "Volt E2" : "Volt E1";
                default -> "Haul C";
            };
            LocalDate commissioned = LocalDate.of(2018, 3, 1).plusDays(r.nextInt(6 * 365));
            out.add("INSERT INTO bike VALUES (" + b + ", " + q(String.format(Locale.ROOT, "BK-%05d", 10000 + b * 37)) + ", "
                    + q(kind) + ", " + q(model) + ", " + q(commissioned.toString()) + ")");
        }
        String[] works = {"tyre", "tyre", "brakes", "chain", "inspection", "inspection"};
        for (int m = 1; m <= 420; m++) {
            int b = 1 + r.nextInt(183);
            String work = kindOf[b].equals("electric") && r.nextInt(3) == 0 ? "battery" : works[r.nextInt(works.length)];
            double cost = switch (work) {
                case "battery" -> 180 + r.nextInt(120);
                case "brakes" -> 25 + r.nextDouble() * 30;
                case "chain" -> 15 + r.nextDouble() * 20;
                case "tyre" -> 12 + r.nextDouble() * 18;
                default -> 20;
            };
            out.add("INSERT INTO maintenance VALUES (" + m + ", " + b + ", " + q(day2024(r).toString()) + ", " + q(work)
                    + ", " + money(cost) + ")");
        }
        // 800 riders; Harbour Point has three (7, 307, 607), the Corporate plan four (50, 150, 250, 350).
        String[] districts = {"Old Town", "Old Town", "Riverside", "Riverside", "University", "Market", "Eastfield"};
        String[] plans = {"Pay as you go", "Pay as you go", "Monthly", "Monthly", "Annual", "Student"};
        String[] planOf = new String[801];
        for (int p = 1; p <= 800; p++) {
            String district = p % 300 == 7 ? "Harbour Point" : districts[r.nextInt(districts.length)];
            String plan = p % 100 == 50 && p < 400 ? "Corporate" : plans[r.nextInt(plans.length)];
            planOf[p] = plan;
            String first = FIRST[r.nextInt(FIRST.length)];
            String last = LAST[r.nextInt(LAST.length)];
            out.add("INSERT INTO rider VALUES (" + p + ", " + q(first) + ", " + q(last) + ", "
                    + q(first.toLowerCase(Locale.ROOT) + "_" + last.toLowerCase(Locale.ROOT) + p + "@ride.example") + ", "
                    + q(phone(r)) + ", " + (1950 + r.nextInt(57)) + ", " + q(district) + ", " + q(plan) + ", "
                    + q(LocalDate.of(2019, 1, 1).plusDays(r.nextInt(6 * 365)).toString()) + ")");
        }
        // 3600 trips in 2024. Cargo bikes only for riders 11, 22, 33; the Pier Pop-up only for Harbour Point riders.
        int[] harbour = {7, 307, 607};
        int[] hours = {7, 8, 8, 9, 12, 13, 16, 17, 17, 18, 19, 21};
        int report = 0;
        String[] damages = {"flat tyre", "flat tyre", "broken light", "bent wheel", "loose saddle"};
        for (int t = 1; t <= 3600; t++) {
            int rider = 1 + r.nextInt(800);
            int bike = 1 + r.nextInt(180);
            LocalDate on = day2024(r);
            if (t % 250 == 17) {
                rider = new int[] {11, 22, 33}[(t / 250) % 3];
                bike = 181 + (t / 250) % 3;
            }
            if (t % 90 == 3) {
                rider = harbour[(t / 90) % 3];
            }
            if (t % 400 == 123) {
                rider = (t / 400) % 2 == 0 ? 44 : 88;
            }
            int start = 1 + r.nextInt(11);
            int end = r.nextInt(4) == 0 ? start : 1 + r.nextInt(11);
            boolean harbourRider = rider % 300 == 7;
            if (harbourRider && !on.isBefore(LocalDate.of(2024, 11, 1))) {
                if (r.nextBoolean()) {
                    start = 12;
                } else {
                    end = 12;
                }
            }
            boolean electric = kindOf[bike].equals("electric");
            int minutes = 3 + r.nextInt(electric ? 35 : 50);
            if (kindOf[bike].equals("cargo")) {
                minutes = 20 + r.nextInt(60);
            }
            double speed = electric ? 17 + r.nextDouble() * 5 : kindOf[bike].equals("cargo") ? 10 : 11 + r.nextDouble() * 5;
            double km = Math.round(minutes * speed / 60 * 10) / 10.0;
            double fare = switch (planOf[rider]) {
                case "Pay as you go" -> 1 + 0.15 * minutes;
                case "Monthly", "Annual" -> minutes > 30 ? 0.1 * (minutes - 30) : 0;
                case "Student" -> 0.5 + 0.05 * minutes;
                default -> 0;
            } + (electric ? 0.1 * minutes : 0);
            out.add("INSERT INTO trip VALUES (" + t + ", " + rider + ", " + bike + ", " + start + ", " + end + ", "
                    + q(on.toString()) + ", " + hours[r.nextInt(hours.length)] + ", " + minutes + ", "
                    + String.format(Locale.ROOT, "%.1f", km) + ", " + money(fare) + ")");
            String kind = t % 400 == 123 ? "vandalism" : r.nextInt(25) == 0 ? damages[r.nextInt(damages.length)] : null;
            if (kind != null) {
                report++;
                double cost = kind.equals("vandalism") ? 150 + r.nextInt(200) : kind.equals("bent wheel") ? 45 : 8 + r.nextInt(25);
                out.add("INSERT INTO damage_report VALUES (" + report + ", " + t + ", " + q(on.plusDays(r.nextInt(2)).toString())
                        + ", " + q(kind) + ", " + money(cost) + ")");
            }
        }
        // App sessions, no key; the smartwatch app is used by riders 5, 15 and 25 only.
        String[] platforms = {"ios", "ios", "android", "android", "android", "web"};
        for (int n = 0; n < 4000; n++) {
            int rider = 1 + r.nextInt(800);
            String platform = platforms[r.nextInt(platforms.length)];
            if (n % 150 == 44) {
                rider = new int[] {5, 15, 25}[(n / 150) % 3];
                platform = "smartwatch";
            }
            out.add("INSERT INTO app_session VALUES (" + rider + ", " + q(day2024(r).toString()) + ", " + q(platform) + ", "
                    + (1 + r.nextInt(platform.equals("web") ? 12 : 6)) + ")");
        }
    }

    // ---------------------------------------------------------------- ski resort

    static final LocalDate SEASON = LocalDate.of(2024, 12, 1);
    static final int SEASON_DAYS = 136; // to 2025-04-15

    static void skiresort(List<String> out) {
        Random r = new Random(4512);
        // name, kind, sector, vertical, seats
        String[][] lifts = {
                {"Valley Gondola", "gondola", "Base", "820", "8"}, {"Sunrise Express", "chair", "Base", "410", "6"},
                {"Bunny Carpet", "magic carpet", "Base", "12", "1"}, {"Meadow Drag", "drag", "Base", "150", "1"},
                {"Eagle Chair", "chair", "Midmountain", "520", "4"}, {"Pine Quad", "chair", "Midmountain", "380", "4"},
                {"Ridge Six", "chair", "Glacier", "610", "6"}, {"Glacier T-bar", "drag", "Glacier", "290", "2"},
                {"Cornice Chair", "chair", "Glacier", "450", "2"}, {"Summit T-bar", "drag", "Summit", "240", "2"}};
        for (int i = 0; i < lifts.length; i++) {
            out.add("INSERT INTO lift VALUES (" + (i + 1) + ", " + q(lifts[i][0]) + ", " + q(lifts[i][1]) + ", "
                    + q(lifts[i][2]) + ", " + lifts[i][3] + ", " + lifts[i][4] + ")");
        }
        // name, days, age band, price; the Season Family pass (10) is bought by four guests.
        String[][] products = {
                {"1 Day Adult", "1", "adult", "62.00"}, {"1 Day Child", "1", "child", "34.00"},
                {"1 Day Senior", "1", "senior", "48.00"}, {"3 Day Adult", "3", "adult", "168.00"},
                {"3 Day Child", "3", "child", "92.00"}, {"6 Day Adult", "6", "adult", "310.00"},
                {"6 Day Senior", "6", "senior", "245.00"}, {"Season Adult", "10", "adult", "690.00"},
                {"Season Child", "10", "child", "350.00"}, {"Season Family", "10", "family", "1490.00"}};
        for (int i = 0; i < products.length; i++) {
            out.add("INSERT INTO pass_product VALUES (" + (i + 1) + ", " + q(products[i][0]) + ", " + products[i][1] + ", "
                    + q(products[i][2]) + ", " + products[i][3] + ")");
        }
        int[] snow = new int[SEASON_DAYS];
        int base = 60;
        for (int d = 0; d < SEASON_DAYS; d++) {
            snow[d] = r.nextInt(5) == 0 ? 5 + r.nextInt(40) : r.nextInt(3) == 0 ? r.nextInt(5) : 0;
            base = Math.max(40, base + snow[d] / 2 - r.nextInt(3));
            out.add("INSERT INTO snow_day VALUES (" + q(SEASON.plusDays(d).toString()) + ", " + snow[d] + ", " + base + ", "
                    + (-18 + r.nextInt(16) + d / 20) + ")");
        }
        // 700 guests; Liechtenstein has three (9, 259, 509), the Platinum level four (100, 200, 300, 400).
        String[] countries = {"Austria", "Austria", "Germany", "Germany", "Germany", "Switzerland", "Netherlands",
                "United Kingdom", "Italy", "Denmark"};
        String[] levels = {"Bronze", "Bronze", "Bronze", "Silver", "Silver", "Gold"};
        for (int g = 1; g <= 700; g++) {
            String country = g % 250 == 9 ? "Liechtenstein" : countries[r.nextInt(countries.length)];
            String level = g % 100 == 0 && g <= 400 ? "Platinum" : levels[r.nextInt(levels.length)];
            String first = FIRST[r.nextInt(FIRST.length)];
            String last = LAST[r.nextInt(LAST.length)];
            out.add("INSERT INTO guest VALUES (" + g + ", " + q(first) + ", " + q(last) + ", "
                    + q(last.toLowerCase(Locale.ROOT) + first.toLowerCase(Locale.ROOT).charAt(0) + g + "@snowmail.example")
                    + ", " + q(phone(r)) + ", " + q(LocalDate.of(1945, 1, 1).plusDays(r.nextInt(72 * 365)).toString()) + ", "
                    + q(country) + ", " + q(level) + ")");
        }
        // 1200 pass purchases, each with its lift scans.
        String[] channels = {"online", "online", "online", "ticket office", "ticket office", "hotel desk"};
        int[] commonProducts = {1, 1, 1, 2, 2, 3, 4, 4, 4, 5, 6, 6, 7, 8, 9};
        int scan = 0;
        for (int p = 1; p <= 1200; p++) {
            int guest = 1 + r.nextInt(700);
            int product = commonProducts[r.nextInt(commonProducts.length)];
            String channel = channels[r.nextInt(channels.length)];
            if (p % 300 == 77) {
                guest = 61 + (p / 300) % 4;
                product = 10;
            }
            if (p % 250 == 111) {
                guest = 71 + (p / 250) % 3;
                channel = "travel agent";
            }
            if (p % 200 == 13) {
                guest = new int[] {13, 26, 39}[(p / 200) % 3];
            }
            int days = Integer.parseInt(products[product - 1][1]);
            int firstDay = days >= 10 ? r.nextInt(30) : r.nextInt(SEASON_DAYS - days);
            LocalDate first = SEASON.plusDays(firstDay);
            boolean early = r.nextInt(5) == 0;
            LocalDate bought = early ? LocalDate.of(2024, 10, 1).plusDays(r.nextInt(55)) : first.minusDays(r.nextInt(4));
            double price = Double.parseDouble(products[product - 1][3]) * (early ? 0.85 : 1.0)
                    * (channel.equals("online") ? 0.95 : 1.0);
            out.add("INSERT INTO pass_purchase VALUES (" + p + ", " + guest + ", " + product + ", " + q(bought.toString())
                    + ", " + q(first.toString()) + ", " + q(channel) + ", " + money(Math.round(price * 100) / 100.0) + ")");
            int skiDays = days >= 10 ? 4 + r.nextInt(7) : days;
            boolean summit = guest == 13 || guest == 26 || guest == 39;
            for (int d = 0; d < skiDays; d++) {
                int offset = days >= 10 ? Math.min(SEASON_DAYS - 1, firstDay + d * (1 + r.nextInt(9))) : firstDay + d;
                LocalDate on = SEASON.plusDays(offset);
                int rides = 1 + r.nextInt(4) + (snow[offset] >= 20 ? 2 : 0);
                for (int k = 0; k < rides; k++) {
                    scan++;
                    int lift = product == 2 || product == 5 || product == 9 ? 1 + r.nextInt(4) : 1 + r.nextInt(9);
                    if (summit && k == rides - 1) {
                        lift = 10;
                    }
                    out.add("INSERT INTO lift_scan VALUES (" + scan + ", " + p + ", " + lift + ", " + q(on.toString())
                            + ", " + (9 + r.nextInt(8)) + ")");
                }
            }
        }
        // Equipment rentals, no key; splitboards are rented by guests 45 and 90 only.
        String[] items = {"skis", "skis", "skis", "snowboard", "boots", "boots", "helmet"};
        for (int n = 0; n < 1100; n++) {
            int guest = 1 + r.nextInt(700);
            String item = items[r.nextInt(items.length)];
            if (n % 220 == 19) {
                guest = (n / 220) % 2 == 0 ? 45 : 90;
                item = "splitboard";
            }
            double rate = switch (item) {
                case "skis" -> 32;
                case "snowboard" -> 29;
                case "boots" -> 14;
                case "helmet" -> 6;
                default -> 45;
            };
            int days = 1 + r.nextInt(6);
            out.add("INSERT INTO equipment_rental VALUES (" + guest + ", " + q(item) + ", "
                    + q(SEASON.plusDays(r.nextInt(SEASON_DAYS - 6)).toString()) + ", " + days + ", " + money(rate * days) + ")");
        }
    }
}
