package dev.schemabrain.demo;

import org.sqlite.SQLiteConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.text.Normalizer;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * The bundled demo database: the production schema of a small, fictional B2B SaaS company in
 * SQLite, filled with a few thousand rows of generated but realistic data.
 *
 * <p>Tables (12): {@code plans}, {@code organizations}, {@code users}, {@code teams},
 * {@code team_members} (junction of teams and users), {@code projects}, {@code subscriptions},
 * {@code invoices}, {@code invoice_line_items}, {@code payments}, {@code support_tickets} and
 * {@code page_views}.
 *
 * <p>It deliberately holds what SchemaBrain must handle: personal data (e-mail addresses, phone
 * numbers, postal addresses, dates of birth, IP addresses, bcrypt password hashes and Luhn-valid
 * card numbers), money in cents, enum-like status columns and ISO-8601 timestamps spread over two
 * years. Generation uses a fixed seed and a fixed "now", so every run writes the same data.
 */
public final class DemoDatabase {

    public static final int TABLE_COUNT = 12;

    private static final long SEED = 0x5C4E3AL;
    /** The moment the data was "exported". Fixed, so no run ever depends on the clock. */
    private static final LocalDateTime NOW = LocalDateTime.of(2025, 1, 1, 0, 0);
    private static final LocalDateTime FIRST_SIGNUP = LocalDateTime.of(2023, 1, 3, 9, 0);
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    /** The tables and indexes, from demo.sql beside this class. */
    private static final List<String> SCHEMA = schema();

    private DemoDatabase() {
    }

    /**
     * Writes the demo database to {@code file}, replacing any file already there. The database is
     * built beside it under a temporary name and renamed into place, so readers (and interrupted
     * runs) only ever see the old file or the complete new one.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void create(Path file) {
        Path target = file.toAbsolutePath();
        Path temp = null;
        try {
            Files.createDirectories(target.getParent());
            // A hidden sibling, so the final rename stays on one file system; SQLite creates it with the
            // usual permissions (Files.createTempFile would make it owner-only).
            temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
            try (Connection connection = open(temp)) {
                connection.setAutoCommit(false);
                try (Statement statement = connection.createStatement()) {
                    for (String ddl : SCHEMA) {
                        statement.execute(ddl);
                    }
                }
                new Generator(connection, new Random(SEED)).run();
                connection.commit();
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    // sqlite_stat1 gives introspection its row estimates, as a maintained database would have.
                    statement.execute("ANALYZE");
                }
            }
            moveIntoPlace(temp, target);
            temp = null;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the demo database " + target, e);
        } catch (SQLException e) {
            throw new UncheckedIOException(new IOException("Could not build the demo database " + target, e));
        } finally {
            if (temp != null) {
                deleteQuietly(temp);
                deleteQuietly(Path.of(temp + "-journal"));
            }
        }
    }

    /** Creates the demo database only if {@code file} does not exist yet; returns {@code file}. */
    public static Path ensure(Path file) {
        if (!Files.exists(file)) {
            create(file);
        }
        return file;
    }

    /**
     * The statements of demo.sql: each ends with a semicolon at a line's end. They are run as written, comments
     * included, since SQLite keeps a table's text for {@code .schema} and every introspecting client.
     */
    private static List<String> schema() {
        String script;
        try (InputStream in = DemoDatabase.class.getResourceAsStream("demo.sql")) {
            if (in == null) {
                throw new IllegalStateException("demo.sql is missing from the build");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("demo.sql cannot be read", e);
        }
        List<String> statements = new ArrayList<>();
        for (String part : script.split(";[ \\t]*(\\r?\\n|$)")) {
            String sql = part.strip().replaceFirst("^(--[^\\n]*\\n\\s*)+", "");
            if (!sql.isEmpty() && !sql.startsWith("--")) {
                statements.add(sql);
            }
        }
        return List.copyOf(statements);
    }

    /** A connection that enforces foreign keys, so generated rows with a dangling reference fail loudly. */
    static Connection open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.enforceForeignKeys(true);
        return DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
    }

    private static void moveIntoPlace(Path temp, Path target) throws IOException {
        try {
            // rename(2) replaces the target atomically on POSIX; Windows uses MoveFileEx with replace.
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // Best effort: a stray temporary file is harmless and hidden.
        }
    }

    // ---------------------------------------------------------------- vocabulary

    private record City(String name, String country, String postalPattern, String dialPrefix,
                        String currency, double taxRate, String tld) {
    }

    private record Plan(int id, String name, long priceCents, Integer seatLimit, boolean isPublic) {
    }

    private record Card(String brand, String number) {
    }

    /** Postal patterns: '#' is a digit, '?' an upper-case letter. */
    private static final List<City> CITIES = List.of(
            new City("Austin", "US", "787##", "+1 512", "USD", 0.0825, ".com"),
            new City("New York", "US", "100##", "+1 212", "USD", 0.08875, ".com"),
            new City("San Francisco", "US", "941##", "+1 415", "USD", 0.08625, ".com"),
            new City("Denver", "US", "802##", "+1 303", "USD", 0.0881, ".com"),
            new City("Toronto", "CA", "M5V #?#", "+1 416", "CAD", 0.13, ".ca"),
            new City("London", "GB", "EC#? #??", "+44 20", "GBP", 0.20, ".co.uk"),
            new City("Manchester", "GB", "M# #??", "+44 161", "GBP", 0.20, ".co.uk"),
            new City("Berlin", "DE", "10###", "+49 30", "EUR", 0.19, ".de"),
            new City("Munich", "DE", "80###", "+49 89", "EUR", 0.19, ".de"),
            new City("Amsterdam", "NL", "10## ??", "+31 20", "EUR", 0.21, ".nl"),
            new City("Paris", "FR", "750##", "+33 1", "EUR", 0.20, ".fr"),
            new City("Dublin", "IE", "D0# ?#??", "+353 1", "EUR", 0.23, ".ie"),
            new City("Stockholm", "SE", "11# ##", "+46 8", "SEK", 0.25, ".se"),
            new City("Sydney", "AU", "20##", "+61 2", "AUD", 0.10, ".com.au"),
            new City("Singapore", "SG", "######", "+65", "SGD", 0.09, ".sg"));

    private static final List<String> FIRST_NAMES = List.of(
            "Olivia", "Liam", "Emma", "Noah", "Ava", "Lucas", "Sophia", "Mateo", "Mia", "Ethan", "Amelia",
            "James", "Charlotte", "Benjamin", "Isabella", "Elijah", "Harper", "Leo", "Chloe", "Daniel",
            "Priya", "Arjun", "Mei", "Hiroshi", "Yuki", "Fatima", "Omar", "Aisha", "Kwame", "Zanele",
            "Lars", "Ingrid", "Sven", "Camille", "Julien", "Lena", "Jonas", "Sofia", "Diego", "Valentina",
            "Chen", "Wei", "Nadia", "Tomasz", "Anna", "Ruth", "Samuel", "Grace", "Marcus", "Elena");
    private static final List<String> LAST_NAMES = List.of(
            "Smith", "Johnson", "Williams", "Brown", "Garcia", "Miller", "Davis", "Martinez", "Lopez",
            "Wilson", "Anderson", "Taylor", "Thomas", "Moore", "Martin", "Lee", "Walker", "Hall", "Young",
            "King", "Patel", "Shah", "Nguyen", "Kim", "Tanaka", "Sato", "Chen", "Wang", "Okafor", "Mensah",
            "Schmidt", "Müller", "Fischer", "Dubois", "Lefebvre", "Jansen", "de Vries", "Andersson",
            "Nilsson", "Kowalski", "Novak", "Rossi", "Bianchi", "Silva", "O'Connor", "Murphy", "Kelly",
            "Cohen", "Haddad", "Ivanova");
    private static final List<String> COMPANY_WORDS = List.of(
            "Northwind", "Bluebird", "Cedar", "Harbor", "Summit", "Lumen", "Quarry", "Juniper", "Atlas",
            "Copper", "Meridian", "Beacon", "Kestrel", "Orchid", "Pioneer", "Riverstone", "Sable", "Tandem",
            "Vertex", "Willow", "Zephyr", "Granite", "Helix", "Ironwood", "Marigold");
    private static final List<String> COMPANY_SUFFIXES = List.of(
            "Labs", "Analytics", "Systems", "Logistics", "Health", "Studio", "Software", "Foods",
            "Robotics", "Capital", "Media", "Energy");
    private static final List<String> INDUSTRIES = List.of(
            "Software", "Healthcare", "Logistics", "Financial Services", "Retail", "Education", "Media",
            "Manufacturing", "Energy", "Hospitality");
    private static final List<String> STREETS = List.of(
            "Market Street", "Elm Street", "King Street", "Station Road", "Park Avenue", "Mill Lane",
            "Canal Street", "Oak Avenue", "High Street", "Harbour Road", "Church Street", "Lake Drive");
    private static final List<String> PERSONAL_MAIL = List.of(
            "gmail.com", "outlook.com", "yahoo.com", "proton.me", "icloud.com");
    private static final List<String> TEAM_NAMES = List.of(
            "Platform", "Growth", "Data", "Design", "Mobile", "Billing", "Infrastructure", "Customer Success",
            "Marketing", "Security", "Finance", "Operations");
    private static final List<String> PROJECT_SUBJECTS = List.of(
            "Website", "Mobile App", "Data Warehouse", "Checkout", "Onboarding", "Public API", "Search",
            "Reporting", "Billing", "Analytics", "Partner Portal", "Help Center");
    private static final List<String> PROJECT_KINDS = List.of(
            "Redesign", "Migration", "v2", "Revamp", "Rollout", "Pilot", "Cleanup", "Integration", "Audit");
    private static final List<Plan> BASE_PLANS = List.of(
            new Plan(1, "Free", 0, 3, true),
            new Plan(2, "Starter", 900, 10, true),
            new Plan(3, "Team", 1900, 50, true),
            new Plan(4, "Business", 3900, 250, true),
            new Plan(5, "Enterprise", 7900, null, false));
    private static final List<Plan> ADD_ONS = List.of(
            new Plan(6, "SSO & SCIM", 4900, null, true),
            new Plan(7, "Audit Log Retention", 2900, null, true),
            new Plan(8, "Priority Support", 9900, null, true),
            new Plan(9, "Extra Storage 1 TB", 1500, null, true),
            new Plan(10, "Advanced Analytics", 3900, null, true),
            new Plan(11, "Sandbox Environments", 1900, null, true),
            new Plan(12, "Premium Connectors", 2500, null, false));
    private static final List<String> TICKET_SUBJECTS = List.of(
            "Cannot log in after password reset", "Invoice shows the wrong number of seats",
            "How do I export project data to CSV?", "SSO login loop with Okta",
            "Request to raise our API rate limit", "Card declined but we were charged",
            "Dashboard loads slowly", "Please send a copy of your DPA", "Webhook deliveries failing",
            "Two-factor code not arriving", "Monthly report shows an empty week", "How do we cancel our plan?",
            "Change the billing address on invoices", "Add a teammate without an e-mail invite",
            "Question about annual pricing");
    private static final List<String> PAGES = List.of(
            "/dashboard", "/projects", "/projects/{project}", "/projects/{project}/board", "/teams/{team}",
            "/settings/profile", "/settings/billing", "/billing/invoices", "/reports/monthly-usage",
            "/integrations", "/search?q=roadmap", "/help");
    private static final List<String> USER_AGENTS = List.of(
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
            "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36");
    private static final String BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    // ---------------------------------------------------------------- generated entities

    /** Entities get their ids only after sorting by creation time, as an auto-increment key would. */
    private abstract static class Entity {
        int id;
        LocalDateTime createdAt;
    }

    private static final class Org extends Entity {
        String name;
        String domain;
        City city;
        int emailStyle;
        boolean paysByHand;
        double weight;
        final List<User> users = new ArrayList<>();
        final List<Team> teams = new ArrayList<>();
        final List<Project> projects = new ArrayList<>();
        final List<Card> cards = new ArrayList<>();
    }

    private static final class User extends Entity {
        Org org;
        String ip;
        int userAgent;
    }

    private static final class Team extends Entity {
        Org org;
        String name;
    }

    private static final class Project extends Entity {
        Org org;
        Team team;
        String name;
    }

    private static final class Subscription extends Entity {
        Org org;
        Plan plan;
        boolean yearly;
        int seats;
        LocalDateTime canceledAt;
        LocalDateTime billedFrom;
        Invoice latest;
    }

    private static final class Invoice extends Entity {
        Subscription subscription;
        String status;
        long tax;
        long total;
        long due;
        final List<Object[]> lines = new ArrayList<>();
    }

    private static final class Payment extends Entity {
        Invoice invoice;
        Card card;
        String status;
    }

    private static final class Ticket extends Entity {
        User user;
    }

    private static final class PageView extends Entity {
        User user;
    }

    // ---------------------------------------------------------------- generator

    private static final class Generator {

        private final Connection connection;
        private final Random rnd;
        private final List<Org> orgs = new ArrayList<>();
        private final List<User> users = new ArrayList<>();
        private final List<Team> teams = new ArrayList<>();
        private double totalWeight;

        Generator(Connection connection, Random rnd) {
            this.connection = connection;
            this.rnd = rnd;
        }

        void run() throws SQLException {
            plans();
            organizations();
            users();
            teams();
            projects();
            billing();
            tickets();
            pageViews();
        }

        private void plans() throws SQLException {
            List<Object[]> rows = new ArrayList<>();
            for (List<Plan> group : List.of(BASE_PLANS, ADD_ONS)) {
                for (Plan p : group) {
                    rows.add(new Object[] {p.id(), p.name(), p.priceCents(), p.seatLimit(), p.isPublic() ? 1 : 0});
                }
            }
            insert("plans", "id, name, monthly_price_cents, seat_limit, is_public", rows);
        }

        private void organizations() throws SQLException {
            List<String> names = new ArrayList<>();
            for (String word : COMPANY_WORDS) {
                for (String suffix : COMPANY_SUFFIXES) {
                    names.add(word + " " + suffix);
                }
            }
            Collections.shuffle(names, rnd);
            for (int i = 0; i < 40; i++) {
                Org org = new Org();
                org.name = names.get(i);
                org.city = pick(CITIES);
                String tld = rnd.nextInt(10) < 4 ? ".io" : org.city.tld();
                org.domain = org.name.toLowerCase(Locale.ROOT).replace(" ", "") + tld;
                org.emailStyle = rnd.nextInt(3);
                org.paysByHand = rnd.nextInt(4) == 0;
                org.weight = StrictMath.exp(rnd.nextDouble() * 4); // a few large customers, many small ones
                org.createdAt = signupTime(i);
                int cards = rnd.nextInt(4) == 0 ? 2 : 1; // some keep a backup card on file
                for (int c = 0; c < cards; c++) {
                    org.cards.add(card());
                }
                orgs.add(org);
            }
            numberByCreation(orgs);
            totalWeight = orgs.stream().mapToDouble(o -> o.weight).sum();
            List<Object[]> rows = new ArrayList<>();
            for (Org o : orgs) {
                String street = (1 + rnd.nextInt(480)) + " " + pick(STREETS);
                rows.add(new Object[] {o.id, o.name, pick(INDUSTRIES), street, o.city.name(),
                        fill(o.city.postalPattern()), o.city.country(), ts(o.createdAt)});
            }
            insert("organizations", "id, name, industry, street, city, postal_code, country, created_at", rows);
        }

        /** Signups lean early, so most customers have a long billing history; the last two are still trialing. */
        private LocalDateTime signupTime(int index) {
            if (index >= 38) {
                return between(NOW.minusDays(12), NOW.minusDays(2));
            }
            long span = ChronoUnit.SECONDS.between(FIRST_SIGNUP, NOW.minusDays(30));
            return FIRST_SIGNUP.plusSeconds((long) (span * StrictMath.pow(rnd.nextDouble(), 1.6)));
        }

        private void users() throws SQLException {
            for (int i = 0; i < 400; i++) {
                User u = new User();
                if (i < orgs.size()) {
                    // Every organization starts with the person who signed it up.
                    u.org = orgs.get(i);
                    u.createdAt = u.org.createdAt.plusMinutes(rnd.nextInt(30));
                } else {
                    u.org = weighted();
                    u.createdAt = between(u.org.createdAt.plusHours(1), NOW);
                }
                u.ip = ip();
                u.userAgent = rnd.nextInt(USER_AGENTS.size());
                users.add(u);
            }
            numberByCreation(users);
            Set<String> emails = new HashSet<>();
            List<Object[]> rows = new ArrayList<>();
            for (User u : users) {
                u.org.users.add(u);
                String first = pick(FIRST_NAMES);
                String last = pick(LAST_NAMES);
                String role = u.org.users.size() == 1 ? "owner" : rnd.nextInt(7) == 0 ? "admin" : "member";
                String phone = rnd.nextInt(10) < 7
                        ? u.org.city.dialPrefix() + " " + fill("### ####") : null;
                String birth = rnd.nextInt(10) < 6
                        ? FIRST_SIGNUP.toLocalDate().minusYears(20).minusDays(rnd.nextInt(365 * 40)).toString() : null;
                rows.add(new Object[] {u.id, u.org.id, email(first, last, u.org, emails), first, last, phone,
                        bcrypt(), birth, role, ts(u.createdAt)});
            }
            insert("users", "id, organization_id, email, first_name, last_name, phone_number, password_hash, "
                    + "date_of_birth, role, created_at", rows);
        }

        private void teams() throws SQLException {
            while (teams.size() < 30) {
                Org org = weighted();
                if (org.users.size() < 3 || org.teams.size() == TEAM_NAMES.size()) {
                    continue;
                }
                Team t = new Team();
                t.org = org;
                do {
                    t.name = pick(TEAM_NAMES);
                } while (org.teams.stream().anyMatch(other -> other.name.equals(t.name)));
                t.createdAt = between(org.createdAt.plusDays(1), NOW.minusDays(5));
                org.teams.add(t);
                teams.add(t);
            }
            numberByCreation(teams);
            List<Object[]> rows = new ArrayList<>();
            List<Object[]> members = new ArrayList<>();
            for (Team t : teams) {
                rows.add(new Object[] {t.id, t.org.id, t.name, ts(t.createdAt)});
                List<User> pool = new ArrayList<>(t.org.users);
                Collections.shuffle(pool, rnd);
                int size = Math.max(2, (int) Math.round(pool.size() * (0.5 + 0.5 * rnd.nextDouble())));
                List<User> chosen = new ArrayList<>(pool.subList(0, Math.min(size, pool.size())));
                chosen.sort(Comparator.comparingInt(u -> u.id));
                for (User u : chosen) {
                    LocalDateTime from = later(t.createdAt, u.createdAt);
                    members.add(new Object[] {t.id, u.id, ts(between(from, earlier(from.plusDays(20), NOW)))});
                }
            }
            insert("teams", "id, organization_id, name, created_at", rows);
            insert("team_members", "team_id, user_id, joined_at", members);
        }

        private void projects() throws SQLException {
            List<Project> projects = new ArrayList<>();
            while (projects.size() < 120) {
                Project p = new Project();
                p.org = weighted();
                p.team = !p.org.teams.isEmpty() && rnd.nextInt(4) > 0 ? pick(p.org.teams) : null;
                p.name = pick(PROJECT_SUBJECTS) + " " + pick(PROJECT_KINDS);
                if (p.org.projects.stream().anyMatch(other -> other.name.equals(p.name))) {
                    continue;
                }
                p.createdAt = between(p.team != null ? p.team.createdAt : p.org.createdAt, NOW);
                p.org.projects.add(p);
                projects.add(p);
            }
            numberByCreation(projects);
            List<Object[]> rows = new ArrayList<>();
            for (Project p : projects) {
                int roll = rnd.nextInt(20);
                String status = roll < 13 ? "active" : roll < 15 ? "on_hold" : "archived";
                rows.add(new Object[] {p.id, p.org.id, p.team == null ? null : p.team.id, p.name, status,
                        ts(p.createdAt)});
            }
            insert("projects", "id, organization_id, team_id, name, status, created_at", rows);
        }

        /** Subscriptions, then one invoice per billing period, then the card payments that settled them. */
        private void billing() throws SQLException {
            List<Subscription> subs = new ArrayList<>();
            for (Org org : orgs) {
                basePlanHistory(org, subs);
                addOns(org, subs);
            }
            numberByCreation(subs);

            List<Invoice> invoices = new ArrayList<>();
            for (Subscription s : subs) {
                invoice(s, invoices);
            }
            numberByCreation(invoices);

            List<Payment> payments = new ArrayList<>();
            for (Invoice inv : invoices) {
                settle(inv, payments);
            }
            numberByCreation(payments);

            List<Object[]> rows = new ArrayList<>();
            for (Subscription s : subs) {
                rows.add(new Object[] {s.id, s.org.id, s.plan.id(), status(s), s.yearly ? "year" : "month", s.seats,
                        ts(s.createdAt), ts(s.canceledAt)});
            }
            insert("subscriptions", "id, organization_id, plan_id, status, billing_interval, seats, started_at, "
                    + "canceled_at", rows);

            rows.clear();
            List<Object[]> lines = new ArrayList<>();
            for (Invoice inv : invoices) {
                rows.add(new Object[] {inv.id, inv.subscription.id,
                        String.format(Locale.ROOT, "INV-%d-%05d", inv.createdAt.getYear(), inv.id), inv.status,
                        ts(inv.createdAt), inv.createdAt.toLocalDate().plusDays(14).toString(), inv.tax, inv.total,
                        inv.due});
                for (Object[] line : inv.lines) {
                    lines.add(new Object[] {lines.size() + 1, inv.id, line[0], line[1], line[2], line[3]});
                }
            }
            insert("invoices", "id, subscription_id, invoice_number, status, issued_at, due_date, tax_cents, "
                    + "total_cents, amount_due_cents", rows);
            insert("invoice_line_items", "id, invoice_id, description, quantity, unit_price_cents, amount_cents",
                    lines);

            rows.clear();
            for (Payment p : payments) {
                String number = p.card.number();
                rows.add(new Object[] {p.id, p.invoice.id, p.invoice.total, p.invoice.subscription.org.city.currency(),
                        p.card.brand(), number, number.substring(number.length() - 4), p.status, ts(p.createdAt),
                        p.status.equals("failed") ? null : ts(p.createdAt.plusSeconds(2 + rnd.nextInt(5)))});
            }
            insert("payments", "id, invoice_id, amount_cents, currency, card_brand, card_number, card_last4, status, "
                    + "created_at, paid_at", rows);
        }

        /** Consecutive plans of one organization: mostly upgrades, some downgrades, a few churned accounts. */
        private void basePlanHistory(Org org, List<Subscription> subs) {
            int level = new int[] {0, 1, 1, 2, 2, 2, 3, 3}[rnd.nextInt(8)];
            if (org.createdAt.isAfter(NOW.minusDays(14))) {
                level = Math.max(level, 1); // recent signups are trialing a paid plan
            }
            LocalDateTime start = org.createdAt.plusMinutes(5);
            boolean first = true;
            while (true) {
                Subscription s = new Subscription();
                s.org = org;
                s.plan = BASE_PLANS.get(level);
                s.createdAt = start;
                // Paid plans start with a 14-day trial, but only for a new customer.
                s.billedFrom = first && s.plan.priceCents() > 0 ? start.plusDays(14) : start;
                s.yearly = s.plan.priceCents() > 0 && rnd.nextInt(5) == 0;
                int limit = s.plan.seatLimit() == null ? 1000 : s.plan.seatLimit();
                s.seats = Math.max(1, Math.min(limit, org.users.size() + rnd.nextInt(6) - 1));
                subs.add(s);
                LocalDateTime end = s.yearly ? start.plusDays(365 + rnd.nextInt(300)) : start.plusDays(45 + rnd.nextInt(250));
                if (!end.isBefore(NOW)) {
                    return;
                }
                s.canceledAt = end;
                if (rnd.nextInt(100) < 6) {
                    return; // churned
                }
                level = Math.max(0, Math.min(BASE_PLANS.size() - 1, level + (rnd.nextInt(10) < 7 ? 1 : -1)));
                start = end;
                first = false;
            }
        }

        private void addOns(Org org, List<Subscription> subs) {
            if (org.createdAt.isAfter(NOW.minusDays(30))) {
                return; // too new to have bought extras
            }
            List<Plan> offered = new ArrayList<>(ADD_ONS);
            Collections.shuffle(offered, rnd);
            int count = new int[] {1, 2, 2, 3, 3, 4, 5, 6}[rnd.nextInt(8)];
            for (Plan plan : offered.subList(0, count)) {
                Subscription s = new Subscription();
                s.org = org;
                s.plan = plan;
                s.seats = 1;
                s.createdAt = between(org.createdAt.plusDays(7), NOW.minusDays(1));
                s.billedFrom = s.createdAt;
                LocalDateTime end = s.createdAt.plusDays(30 + rnd.nextInt(500));
                if (end.isBefore(NOW) && rnd.nextInt(3) == 0) {
                    s.canceledAt = end;
                }
                subs.add(s);
            }
        }

        private void invoice(Subscription s, List<Invoice> invoices) {
            if (s.plan.priceCents() == 0) {
                return;
            }
            LocalDateTime end = s.canceledAt == null ? NOW : s.canceledAt;
            for (int period = 0; ; period++) {
                // Count periods from the start so month ends do not drift (Jan 31 -> Feb 29 -> Mar 29 ...).
                LocalDateTime issued = s.yearly ? s.billedFrom.plusYears(period) : s.billedFrom.plusMonths(period);
                if (!issued.isBefore(end)) {
                    return;
                }
                Invoice inv = new Invoice();
                inv.subscription = s;
                inv.createdAt = issued;
                long unit = s.plan.priceCents() * (s.yearly ? 10 : 1); // two months free when paid yearly
                line(inv, s.plan.name() + (ADD_ONS.contains(s.plan) ? "" : " plan")
                        + (s.yearly ? " (annual)" : " (monthly)"), s.seats, unit);
                if (BASE_PLANS.contains(s.plan)) {
                    usageLines(inv, s, period);
                } else if (rnd.nextInt(100) < 35) {
                    line(inv, s.plan.name() + " overage", 1 + rnd.nextInt(10), s.plan.priceCents() / 10);
                }
                long subtotal = inv.lines.stream().mapToLong(l -> (Long) l[3]).sum();
                inv.tax = Math.round(subtotal * s.org.city.taxRate());
                inv.total = subtotal + inv.tax;
                invoices.add(inv);
                s.latest = inv;
            }
        }

        private void usageLines(Invoice inv, Subscription s, int period) {
            if (rnd.nextInt(100) < 60) {
                line(inv, "API overage (per 10k requests)", 1 + rnd.nextInt(40), 150);
            }
            if (rnd.nextInt(100) < 40) {
                line(inv, "Additional storage (per 100 GB)", 1 + rnd.nextInt(8), 400);
            }
            if (rnd.nextInt(100) < 30) {
                line(inv, "SMS notifications (per 100)", 1 + rnd.nextInt(25), 90);
            }
            if (rnd.nextInt(100) < 10) {
                line(inv, "Expert services (per hour)", 1 + rnd.nextInt(6), 17_500);
            }
            if (period == 0 && s.plan.priceCents() >= 3900) {
                line(inv, "Onboarding and training", 1, 150_000);
            }
            if (rnd.nextInt(100) < 4) {
                // An SLA credit: a negative line, as billing systems record it.
                long credit = -Math.round(s.seats * s.plan.priceCents() * 0.1);
                line(inv, "Service credit (SLA)", 1, credit);
            }
        }

        private static void line(Invoice inv, String description, int quantity, long unitCents) {
            inv.lines.add(new Object[] {description, quantity, unitCents, quantity * unitCents});
        }

        /** The card attempts for one invoice, and the invoice status they leave behind. */
        private void settle(Invoice inv, List<Payment> payments) {
            int roll = rnd.nextInt(1000);
            if (roll < 15) {
                inv.status = "void";
                return;
            }
            Org org = inv.subscription.org;
            Card card = org.cards.size() > 1 && rnd.nextInt(5) == 0 ? org.cards.get(1) : org.cards.get(0);
            // Most cards are charged automatically; some customers pay by hand days later.
            LocalDateTime attempt = org.paysByHand
                    ? inv.createdAt.plusDays(1 + rnd.nextInt(20)).plusMinutes(rnd.nextInt(600))
                    : inv.createdAt.plusMinutes(5 + rnd.nextInt(55));
            // Dunning: a declined card is retried every three days, three attempts at most.
            boolean collectible = roll >= 40;
            int attempts = !collectible ? 3 : roll < 100 ? 2 : 1;
            for (int i = 0; i < attempts && attempt.isBefore(NOW); i++) {
                Payment p = new Payment();
                p.invoice = inv;
                p.card = card;
                p.createdAt = attempt;
                boolean succeeds = collectible && i == attempts - 1;
                p.status = !succeeds ? "failed" : rnd.nextInt(100) < 2 ? "refunded" : "succeeded";
                payments.add(p);
                if (!p.status.equals("failed")) {
                    inv.status = "paid";
                    return;
                }
                attempt = attempt.plusDays(3);
            }
            boolean overdue = inv.createdAt.plusDays(30).isBefore(NOW);
            inv.status = !collectible && overdue ? "uncollectible" : "open";
            inv.due = inv.total;
        }

        private static String status(Subscription s) {
            if (s.canceledAt != null) {
                return "canceled";
            }
            if (s.billedFrom.isAfter(NOW)) {
                return "trialing";
            }
            boolean unpaid = s.latest != null && !s.latest.status.equals("paid") && !s.latest.status.equals("void")
                    && s.latest.createdAt.plusDays(14).isBefore(NOW);
            return unpaid ? "past_due" : "active";
        }

        private void tickets() throws SQLException {
            List<Ticket> tickets = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                Ticket t = new Ticket();
                t.user = pick(users);
                t.createdAt = between(t.user.createdAt, NOW);
                tickets.add(t);
            }
            numberByCreation(tickets);
            List<Object[]> rows = new ArrayList<>();
            for (Ticket t : tickets) {
                int p = rnd.nextInt(100);
                String priority = p < 25 ? "low" : p < 75 ? "normal" : p < 93 ? "high" : "urgent";
                long ageDays = ChronoUnit.DAYS.between(t.createdAt, NOW);
                int s = rnd.nextInt(100);
                String status = ageDays < 3 ? (s < 60 ? "open" : "pending")
                        : ageDays < 14 ? (s < 20 ? "open" : s < 50 ? "pending" : "solved")
                        : (s < 2 ? "open" : s < 5 ? "pending" : s < 60 ? "solved" : "closed");
                LocalDateTime resolved = null;
                if (status.equals("solved") || status.equals("closed")) {
                    int maxMinutes = priority.equals("urgent") ? 8 * 60 : priority.equals("low") ? 10 * 24 * 60 : 3 * 24 * 60;
                    resolved = earlier(t.createdAt.plusMinutes(20 + rnd.nextInt(maxMinutes)), NOW.minusMinutes(1));
                }
                rows.add(new Object[] {t.id, t.user.org.id, t.user.id, pick(TICKET_SUBJECTS), priority, status,
                        ts(t.createdAt), ts(resolved)});
            }
            insert("support_tickets", "id, organization_id, user_id, subject, priority, status, created_at, "
                    + "resolved_at", rows);
        }

        private void pageViews() throws SQLException {
            List<PageView> views = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                PageView v = new PageView();
                v.user = pick(users);
                v.createdAt = between(v.user.createdAt, NOW);
                views.add(v);
            }
            numberByCreation(views);
            List<Object[]> rows = new ArrayList<>();
            for (PageView v : views) {
                String path = pick(PAGES);
                if (path.contains("{project}")) {
                    path = v.user.org.projects.isEmpty() ? "/projects"
                            : path.replace("{project}", String.valueOf(pick(v.user.org.projects).id));
                }
                if (path.contains("{team}")) {
                    path = v.user.org.teams.isEmpty() ? "/dashboard"
                            : path.replace("{team}", String.valueOf(pick(v.user.org.teams).id));
                }
                // People mostly browse from one place and one browser; sometimes from a phone elsewhere.
                boolean usual = rnd.nextInt(10) < 8;
                String ip = usual ? v.user.ip : ip();
                String agent = USER_AGENTS.get(usual ? v.user.userAgent : rnd.nextInt(USER_AGENTS.size()));
                double seconds = Math.round((1 - StrictMath.log(1 - rnd.nextDouble())) * 300) / 10.0;
                rows.add(new Object[] {v.id, v.user.id, path, ip, agent, seconds, ts(v.createdAt)});
            }
            insert("page_views", "id, user_id, path, ip_address, user_agent, duration_seconds, viewed_at", rows);
        }

        // ------------------------------------------------------------ small generators

        private String email(String first, String last, Org org, Set<String> taken) {
            String f = letters(first);
            String l = letters(last);
            boolean personal = rnd.nextInt(100) < 12;
            int style = personal ? rnd.nextInt(3) : org.emailStyle;
            String local = switch (style) {
                case 0 -> f + "." + l;
                case 1 -> f.charAt(0) + l;
                default -> f + (personal ? "_" + l + (10 + rnd.nextInt(90)) : "");
            };
            String domain = personal ? pick(PERSONAL_MAIL) : org.domain;
            String email = local + "@" + domain;
            for (int n = 2; !taken.add(email); n++) {
                email = local + n + "@" + domain;
            }
            return email;
        }

        private String bcrypt() {
            StringBuilder sb = new StringBuilder("$2b$12$");
            for (int i = 0; i < 53; i++) { // 22 characters of salt, 31 of hash
                sb.append(BCRYPT_ALPHABET.charAt(rnd.nextInt(BCRYPT_ALPHABET.length())));
            }
            return sb.toString();
        }

        /** A 16-digit number with a real issuer prefix and a valid Luhn check digit. */
        private Card card() {
            int brand = rnd.nextInt(10);
            String prefix = brand < 6 ? "4" : brand < 9 ? "5" + (1 + rnd.nextInt(5)) : "6011";
            StringBuilder digits = new StringBuilder(prefix);
            while (digits.length() < 15) {
                digits.append(rnd.nextInt(10));
            }
            String name = brand < 6 ? "visa" : brand < 9 ? "mastercard" : "discover";
            return new Card(name, digits.toString() + luhnCheckDigit(digits));
        }

        private String ip() {
            int[] firstOctets = {24, 31, 45, 62, 66, 73, 81, 86, 91, 98, 104, 109, 142, 151, 176, 185, 203, 212, 217};
            return firstOctets[rnd.nextInt(firstOctets.length)] + "." + rnd.nextInt(256) + "." + rnd.nextInt(256)
                    + "." + (1 + rnd.nextInt(254));
        }

        /** Replaces '#' with a digit and '?' with an upper-case letter. */
        private String fill(String pattern) {
            StringBuilder sb = new StringBuilder();
            for (char ch : pattern.toCharArray()) {
                sb.append(ch == '#' ? (char) ('0' + rnd.nextInt(10)) : ch == '?' ? (char) ('A' + rnd.nextInt(26)) : ch);
            }
            return sb.toString();
        }

        private <T> T pick(List<T> list) {
            return list.get(rnd.nextInt(list.size()));
        }

        /** An organization chosen with probability proportional to its weight. */
        private Org weighted() {
            double target = rnd.nextDouble() * totalWeight;
            for (Org org : orgs) {
                target -= org.weight;
                if (target < 0) {
                    return org;
                }
            }
            return orgs.get(orgs.size() - 1);
        }

        /** A moment between the two, to the second; {@code from} itself if the range is empty. */
        private LocalDateTime between(LocalDateTime from, LocalDateTime to) {
            long seconds = ChronoUnit.SECONDS.between(from, to);
            // nextInt(bound) is specified exactly, unlike nextLong(bound), so the data never varies by JDK.
            return seconds <= 0 ? from : from.plusSeconds(rnd.nextInt((int) Math.min(seconds, Integer.MAX_VALUE)));
        }

        private void insert(String table, String columns, List<Object[]> rows) throws SQLException {
            int width = columns.split(",").length;
            String sql = "INSERT INTO " + table + " (" + columns + ") VALUES ("
                    + String.join(", ", Collections.nCopies(width, "?")) + ")";
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                for (Object[] row : rows) {
                    for (int i = 0; i < width; i++) {
                        statement.setObject(i + 1, row[i]);
                    }
                    statement.addBatch();
                }
                statement.executeBatch();
            }
        }
    }

    // ---------------------------------------------------------------- pure helpers

    /** Sorts by creation time (stable, so ties keep generation order) and numbers from 1. */
    private static void numberByCreation(List<? extends Entity> entities) {
        entities.sort(Comparator.comparing((Entity e) -> e.createdAt));
        for (int i = 0; i < entities.size(); i++) {
            entities.get(i).id = i + 1;
        }
    }

    static int luhnCheckDigit(CharSequence payload) {
        int sum = 0;
        for (int i = 0; i < payload.length(); i++) {
            int d = payload.charAt(payload.length() - 1 - i) - '0';
            if (i % 2 == 0) { // these digits sit at even positions once the check digit is appended
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
        }
        return (10 - sum % 10) % 10;
    }

    /** "Müller" becomes "muller" and "O'Connor" "oconnor": e-mail local parts stay plain ASCII. */
    private static String letters(String name) {
        String plain = Normalizer.normalize(name, Normalizer.Form.NFD);
        return plain.toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
    }

    private static LocalDateTime later(LocalDateTime a, LocalDateTime b) {
        return a.isAfter(b) ? a : b;
    }

    private static LocalDateTime earlier(LocalDateTime a, LocalDateTime b) {
        return a.isBefore(b) ? a : b;
    }

    private static String ts(LocalDateTime t) {
        return t == null ? null : t.format(TIMESTAMP);
    }
}
