package dev.schemabrain.mining;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The workload on Chinook: 44 distinct statements (joins along foreign keys and along columns no key
 * declares, CTEs, subqueries, aggregates, literals holding e-mails no row holds) plus a few writes, each run
 * a known number of times. Written once in portable SQL so PostgreSQL and MariaDB run the same text.
 */
final class ChinookWorkload {

    /** A literal that must never reach the store: it is in no row, only in the statements. */
    static final String SECRET_EMAIL = "mining.secret.4711@example.org";
    static final String OTHER_EMAIL = "another.person.0815@example.net";
    static final String SECRET_NUMBER = "987654321";

    /** The statement run most often: its count is asserted exactly. */
    static final String TOP = "SELECT il.invoice_line_id, t.name FROM invoice_line il JOIN track t ON t.track_id = il.track_id"
            + " WHERE il.invoice_id = 17";
    static final int TOP_RUNS = 7;

    /** Run only in the other database: must not appear when mining this one. */
    static final String OTHER_DATABASE_ONLY = "SELECT media_type_id, name FROM media_type WHERE name <> 'only-in-b'";

    static final List<String> SELECTS = List.of(
            "SELECT customer_id, first_name FROM customer WHERE email = '" + SECRET_EMAIL + "'",
            "SELECT count(*) FROM customer WHERE email LIKE '%" + OTHER_EMAIL + "%'",
            "SELECT c.first_name, i.total FROM customer c JOIN invoice i ON i.customer_id = c.customer_id WHERE c.email = '"
                    + SECRET_EMAIL + "'",
            "SELECT a.title, t.name FROM album a JOIN track t ON t.album_id = a.album_id WHERE a.album_id = 5",
            "SELECT il.quantity, t.name, al.title FROM invoice_line il JOIN track t ON t.track_id = il.track_id"
                    + " JOIN album al ON al.album_id = t.album_id WHERE il.unit_price > 0.5",
            "SELECT al.title, sum(il.unit_price * il.quantity) AS revenue FROM invoice_line il, track t, album al"
                    + " WHERE il.track_id = t.track_id AND t.album_id = al.album_id GROUP BY al.title ORDER BY revenue DESC LIMIT 10",
            "SELECT g.name, count(*) FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY g.name",
            "SELECT m.name, avg(t.milliseconds) FROM track t JOIN media_type m ON m.media_type_id = t.media_type_id GROUP BY m.name",
            "SELECT ar.name, count(al.album_id) FROM artist ar LEFT JOIN album al ON al.artist_id = ar.artist_id GROUP BY ar.name"
                    + " HAVING count(al.album_id) > 3",
            "SELECT e.first_name, c.first_name FROM employee e JOIN customer c ON c.city = e.city",
            "SELECT i.invoice_id, c.country FROM invoice i JOIN customer c ON c.country = i.billing_country WHERE i.total > 10",
            "SELECT e.last_name, m.last_name FROM employee e JOIN employee m ON m.employee_id = e.reports_to",
            "WITH big AS (SELECT invoice_id, total FROM invoice WHERE total > 15) SELECT b.invoice_id, il.track_id FROM big b"
                    + " JOIN invoice_line il ON il.invoice_id = b.invoice_id",
            "WITH per_customer AS (SELECT customer_id, sum(total) AS spent FROM invoice GROUP BY customer_id)"
                    + " SELECT c.last_name, p.spent FROM per_customer p JOIN customer c ON c.customer_id = p.customer_id ORDER BY p.spent DESC",
            "SELECT name FROM track WHERE album_id IN (SELECT album_id FROM album WHERE artist_id = 22)",
            "SELECT c.last_name FROM customer c WHERE EXISTS (SELECT 1 FROM invoice i WHERE i.customer_id = c.customer_id AND i.total > 20)",
            "SELECT x.genre_id, x.n FROM (SELECT genre_id, count(*) AS n FROM track GROUP BY genre_id) x WHERE x.n > 100",
            "SELECT t.name FROM track t WHERE t.track_id NOT IN (SELECT il.track_id FROM invoice_line il)",
            "SELECT max(total), min(total) FROM invoice WHERE billing_country = 'Germany'",
            "SELECT billing_country, count(*), sum(total) FROM invoice GROUP BY billing_country ORDER BY 3 DESC",
            "SELECT p.name, count(pt.track_id) FROM playlist p JOIN playlist_track pt ON pt.playlist_id = p.playlist_id GROUP BY p.name",
            "SELECT t.name FROM playlist_track pt JOIN track t ON t.track_id = pt.track_id WHERE pt.playlist_id = 3",
            "SELECT first_name, last_name FROM employee WHERE title = 'Sales Support Agent' ORDER BY hire_date",
            "SELECT c.first_name, e.first_name FROM customer c JOIN employee e ON e.employee_id = c.support_rep_id WHERE e.email = '"
                    + OTHER_EMAIL + "'",
            "SELECT count(DISTINCT customer_id) FROM invoice WHERE invoice_date >= '2021-01-01'",
            "SELECT invoice_id FROM invoice WHERE customer_id = " + SECRET_NUMBER,
            "SELECT composer, count(*) FROM track WHERE composer IS NOT NULL GROUP BY composer ORDER BY count(*) DESC LIMIT 5",
            "SELECT t.name, t.unit_price FROM track t WHERE t.unit_price > (SELECT avg(unit_price) FROM track)",
            "SELECT a.name FROM artist a WHERE a.artist_id IN (SELECT al.artist_id FROM album al JOIN track t ON t.album_id = al.album_id"
                    + " WHERE t.genre_id = 1)",
            "SELECT i.billing_city, sum(il.quantity) FROM invoice i JOIN invoice_line il ON il.invoice_id = i.invoice_id"
                    + " GROUP BY i.billing_city",
            "SELECT c.country, sum(il.unit_price * il.quantity) FROM customer c JOIN invoice i ON i.customer_id = c.customer_id"
                    + " JOIN invoice_line il ON il.invoice_id = i.invoice_id GROUP BY c.country ORDER BY c.country",
            "SELECT genre_id, name FROM genre ORDER BY name",
            "SELECT name FROM media_type",
            "SELECT title FROM album WHERE title LIKE 'The %'",
            "SELECT track_id, bytes FROM track WHERE bytes > 10000000 ORDER BY bytes DESC",
            "SELECT e.first_name, count(c.customer_id) FROM employee e LEFT JOIN customer c ON c.support_rep_id = e.employee_id"
                    + " GROUP BY e.first_name",
            "SELECT i.invoice_id FROM invoice i, customer c WHERE i.customer_id = c.customer_id AND c.email = '" + SECRET_EMAIL + "'",
            "SELECT count(*) FROM invoice_line WHERE quantity > 1",
            "SELECT t.name, g.name, m.name FROM track t JOIN genre g ON g.genre_id = t.genre_id"
                    + " JOIN media_type m ON m.media_type_id = t.media_type_id WHERE t.milliseconds > 400000",
            "SELECT al.title FROM album al JOIN artist ar ON ar.artist_id = al.artist_id WHERE ar.name = 'AC/DC'",
            "WITH r AS (SELECT track_id, sum(quantity) AS sold FROM invoice_line GROUP BY track_id) SELECT t.name, r.sold FROM r"
                    + " JOIN track t ON t.track_id = r.track_id ORDER BY r.sold DESC LIMIT 3",
            "SELECT c.last_name, c.phone FROM customer c WHERE c.phone = '+1 (555) 010-4711'",
            "SELECT postal_code FROM customer WHERE country = 'Canada' UNION SELECT postal_code FROM employee WHERE country = 'Canada'",
            TOP);

    static final List<String> WRITES = List.of(
            "UPDATE track SET unit_price = unit_price WHERE track_id = 1",
            "DELETE FROM playlist_track WHERE playlist_id = 424242");

    /** One pass: the top statement TOP_RUNS times, every other SELECT once, each write twice. */
    static void run(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : SELECTS) {
                int times = sql.equals(TOP) ? TOP_RUNS : 1;
                for (int i = 0; i < times; i++) {
                    st.execute(sql);
                }
            }
            for (String sql : WRITES) {
                st.execute(sql);
                st.execute(sql);
            }
        }
    }

    private ChinookWorkload() {
    }
}
