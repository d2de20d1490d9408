-- The second analyst blind set, skiresort (issue 45): legitimate statements an analyst would run through execute,
-- each with the SQL that gives the right answer run directly on the database. Written before the set was scored.
-- expect: plain   = no person behind the rows read: the statement's own answer, row for row.
-- expect: subject = the rows are about guests (directly, or one or two foreign-key steps away): the statement's
--                   answer with the groups about fewer than five distinct guests left out, written out by hand as
--                   HAVING count(DISTINCT guest_id) >= 5 on the grouping that is about guests (and anything
--                   computed after it, a window or an outer query, computed over what is left).
-- Blocks start with "-- id:"; the statement runs to "-- expected:"; "-- expected: same" means the statement itself.

-- id: sk01
-- expect: plain
-- question: Lifts per kind with their total vertical and seats
SELECT kind, count(*) AS lifts, sum(vertical_m) AS vertical_m, sum(seats) AS seats FROM lift GROUP BY kind ORDER BY kind
-- expected: same

-- id: sk02
-- expect: plain
-- question: Pass products per age band, cheapest and dearest, price per day
SELECT age_band, count(*) AS products, min(list_price) AS cheapest, max(list_price) AS dearest,
       round(avg(list_price / days), 2) AS avg_price_per_day
FROM pass_product GROUP BY age_band ORDER BY age_band
-- expected: same

-- id: sk03
-- expect: plain
-- question: Snow by month: new snow, powder days, average minimum temperature
SELECT strftime('%Y-%m', day) AS month, sum(new_snow_cm) AS new_snow_cm,
       sum(CASE WHEN new_snow_cm >= 20 THEN 1 ELSE 0 END) AS powder_days, avg(min_temp_c) AS avg_min_temp
FROM snow_day GROUP BY month ORDER BY month
-- expected: same

-- id: sk04
-- expect: plain
-- question: Cumulative snowfall by month of the season
SELECT strftime('%Y-%m', day) AS month, sum(new_snow_cm) AS new_snow_cm,
       sum(sum(new_snow_cm)) OVER (ORDER BY strftime('%Y-%m', day)) AS cumulative_cm
FROM snow_day GROUP BY month ORDER BY month
-- expected: same

-- id: sk05
-- expect: plain
-- question: Lifts per sector, chairlifts and gondolas only (IN filter)
SELECT sector, count(*) AS lifts, max(vertical_m) AS longest FROM lift WHERE kind IN ('chair', 'gondola')
GROUP BY sector ORDER BY sector
-- expected: same

-- id: sk06
-- expect: plain
-- question: Number of lifts and of pass products (UNION ALL of two counts)
SELECT 'lifts' AS what, count(*) AS n FROM lift
UNION ALL
SELECT 'pass products', count(*) FROM pass_product
-- expected: same

-- id: sk07
-- expect: subject
-- question: Passes sold and revenue by product
SELECT pr.name AS product, count(*) AS sold, sum(p.price_paid) AS revenue
FROM pass_purchase p JOIN pass_product pr ON pr.product_id = p.product_id GROUP BY pr.name ORDER BY revenue DESC, pr.name
-- expected:
SELECT pr.name AS product, count(*) AS sold, sum(p.price_paid) AS revenue
FROM pass_purchase p JOIN pass_product pr ON pr.product_id = p.product_id GROUP BY pr.name
HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY revenue DESC, pr.name

-- id: sk08
-- expect: subject
-- question: Pass revenue by month of purchase with a running total
SELECT strftime('%Y-%m', bought_on) AS month, sum(price_paid) AS revenue,
       sum(sum(price_paid)) OVER (ORDER BY strftime('%Y-%m', bought_on)) AS running_revenue
FROM pass_purchase GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', bought_on) AS month, sum(price_paid) AS revenue,
       sum(sum(price_paid)) OVER (ORDER BY strftime('%Y-%m', bought_on)) AS running_revenue
FROM pass_purchase GROUP BY month HAVING count(DISTINCT guest_id) >= 5 ORDER BY month

-- id: sk09
-- expect: subject
-- question: Top five lifts by number of rides (two steps from a guest, no person in the query)
SELECT l.name AS lift, count(*) AS rides FROM lift_scan s JOIN lift l ON l.lift_id = s.lift_id
GROUP BY l.name ORDER BY rides DESC, l.name LIMIT 5
-- expected:
SELECT l.name AS lift, count(*) AS rides FROM lift_scan s JOIN lift l ON l.lift_id = s.lift_id
JOIN pass_purchase p ON p.purchase_id = s.purchase_id
GROUP BY l.name HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY rides DESC, l.name LIMIT 5

-- id: sk10
-- expect: subject
-- question: Rides by sector and vertical metres ridden
SELECT l.sector, count(*) AS rides, sum(l.vertical_m) AS vertical_m
FROM lift_scan s JOIN lift l ON l.lift_id = s.lift_id GROUP BY l.sector ORDER BY l.sector
-- expected:
SELECT l.sector, count(*) AS rides, sum(l.vertical_m) AS vertical_m
FROM lift_scan s JOIN lift l ON l.lift_id = s.lift_id JOIN pass_purchase p ON p.purchase_id = s.purchase_id
GROUP BY l.sector HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY l.sector

-- id: sk11
-- expect: subject
-- question: Rides by hour of the day
SELECT scan_hour, count(*) AS rides FROM lift_scan GROUP BY scan_hour ORDER BY scan_hour
-- expected:
SELECT s.scan_hour, count(*) AS rides FROM lift_scan s JOIN pass_purchase p ON p.purchase_id = s.purchase_id
GROUP BY s.scan_hour HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY s.scan_hour

-- id: sk12
-- expect: subject
-- question: Guests by country
SELECT country, count(*) AS guests FROM guest GROUP BY country ORDER BY guests DESC, country
-- expected:
SELECT country, count(*) AS guests FROM guest GROUP BY country HAVING count(DISTINCT guest_id) >= 5
ORDER BY guests DESC, country

-- id: sk13
-- expect: subject
-- question: Pass revenue per guest by loyalty level
SELECT g.loyalty_level, count(DISTINCT g.guest_id) AS buyers, sum(p.price_paid) / count(DISTINCT g.guest_id) AS revenue_per_buyer
FROM pass_purchase p JOIN guest g ON g.guest_id = p.guest_id GROUP BY g.loyalty_level ORDER BY g.loyalty_level
-- expected:
SELECT g.loyalty_level, count(DISTINCT g.guest_id) AS buyers, sum(p.price_paid) / count(DISTINCT g.guest_id) AS revenue_per_buyer
FROM pass_purchase p JOIN guest g ON g.guest_id = p.guest_id GROUP BY g.loyalty_level
HAVING count(DISTINCT g.guest_id) >= 5 ORDER BY g.loyalty_level

-- id: sk14
-- expect: subject
-- question: Each sales channel's share of pass revenue, in percent
SELECT channel, sum(price_paid) AS revenue, round(100.0 * sum(price_paid) / sum(sum(price_paid)) OVER (), 1) AS pct
FROM pass_purchase GROUP BY channel ORDER BY channel
-- expected:
SELECT channel, sum(price_paid) AS revenue, round(100.0 * sum(price_paid) / sum(sum(price_paid)) OVER (), 1) AS pct
FROM pass_purchase GROUP BY channel HAVING count(DISTINCT guest_id) >= 5 ORDER BY channel

-- id: sk15
-- expect: subject
-- question: Equipment rentals, rental days and revenue by item
SELECT item, count(*) AS rentals, sum(days) AS rental_days, sum(amount) AS revenue
FROM equipment_rental GROUP BY item ORDER BY item
-- expected:
SELECT item, count(*) AS rentals, sum(days) AS rental_days, sum(amount) AS revenue
FROM equipment_rental GROUP BY item HAVING count(DISTINCT guest_id) >= 5 ORDER BY item

-- id: sk16
-- expect: subject
-- question: Rental revenue by month, months over 5,000 only
SELECT strftime('%Y-%m', rented_on) AS month, sum(amount) AS revenue FROM equipment_rental
GROUP BY month HAVING sum(amount) > 5000 ORDER BY month
-- expected:
SELECT strftime('%Y-%m', rented_on) AS month, sum(amount) AS revenue FROM equipment_rental
GROUP BY month HAVING sum(amount) > 5000 AND count(DISTINCT guest_id) >= 5 ORDER BY month

-- id: sk17
-- expect: subject
-- question: Rides per skier day on powder days against other days (snow report joined on the date)
SELECT CASE WHEN d.new_snow_cm >= 20 THEN 'powder' ELSE 'other' END AS day_type,
       count(*) * 1.0 / count(DISTINCT s.purchase_id || '/' || s.scanned_on) AS rides_per_skier_day
FROM lift_scan s JOIN snow_day d ON d.day = s.scanned_on GROUP BY day_type ORDER BY day_type
-- expected:
SELECT CASE WHEN d.new_snow_cm >= 20 THEN 'powder' ELSE 'other' END AS day_type,
       count(*) * 1.0 / count(DISTINCT s.purchase_id || '/' || s.scanned_on) AS rides_per_skier_day
FROM lift_scan s JOIN snow_day d ON d.day = s.scanned_on JOIN pass_purchase p ON p.purchase_id = s.purchase_id
GROUP BY day_type HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY day_type

-- id: sk18
-- expect: subject
-- question: Early-bird sales (bought before the season) by age band: passes and average price paid
SELECT pr.age_band, count(*) AS passes, avg(p.price_paid) AS avg_paid
FROM pass_purchase p JOIN pass_product pr ON pr.product_id = p.product_id
WHERE p.bought_on < '2024-12-01' GROUP BY pr.age_band ORDER BY pr.age_band
-- expected:
SELECT pr.age_band, count(*) AS passes, avg(p.price_paid) AS avg_paid
FROM pass_purchase p JOIN pass_product pr ON pr.product_id = p.product_id
WHERE p.bought_on < '2024-12-01' GROUP BY pr.age_band HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY pr.age_band

-- id: sk19
-- expect: subject
-- question: Guests by how many passes they bought (a distribution over a per-guest CTE)
WITH per_guest AS (SELECT guest_id, count(*) AS passes FROM pass_purchase GROUP BY guest_id)
SELECT passes, count(*) AS guests FROM per_guest GROUP BY passes ORDER BY passes
-- expected:
WITH per_guest AS (SELECT guest_id, count(*) AS passes FROM pass_purchase GROUP BY guest_id)
SELECT passes, count(*) AS guests FROM per_guest GROUP BY passes HAVING count(DISTINCT guest_id) >= 5 ORDER BY passes

-- id: sk20
-- expect: subject
-- question: Distinct skiers and rides per lift kind
SELECT l.kind, count(DISTINCT p.guest_id) AS skiers, count(*) AS rides
FROM lift_scan s JOIN lift l ON l.lift_id = s.lift_id JOIN pass_purchase p ON p.purchase_id = s.purchase_id
GROUP BY l.kind ORDER BY l.kind
-- expected:
SELECT l.kind, count(DISTINCT p.guest_id) AS skiers, count(*) AS rides
FROM lift_scan s JOIN lift l ON l.lift_id = s.lift_id JOIN pass_purchase p ON p.purchase_id = s.purchase_id
GROUP BY l.kind HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY l.kind

-- id: sk21
-- expect: subject
-- question: Every pass product with passes sold and revenue (LEFT JOIN, none sold counts as zero)
SELECT pr.name, count(p.purchase_id) AS sold, coalesce(sum(p.price_paid), 0) AS revenue
FROM pass_product pr LEFT JOIN pass_purchase p ON p.product_id = pr.product_id GROUP BY pr.name ORDER BY pr.name
-- expected:
SELECT pr.name, count(p.purchase_id) AS sold, coalesce(sum(p.price_paid), 0) AS revenue
FROM pass_product pr LEFT JOIN pass_purchase p ON p.product_id = pr.product_id GROUP BY pr.name
HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY pr.name

-- id: sk22
-- expect: subject
-- question: Child passes sold per month of first ski day (IN filter on the catalogue)
SELECT strftime('%Y-%m', first_day) AS month, count(*) AS passes FROM pass_purchase
WHERE product_id IN (SELECT product_id FROM pass_product WHERE age_band = 'child') GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', first_day) AS month, count(*) AS passes FROM pass_purchase
WHERE product_id IN (SELECT product_id FROM pass_product WHERE age_band = 'child') GROUP BY month
HAVING count(DISTINCT guest_id) >= 5 ORDER BY month

-- id: sk23
-- expect: subject
-- question: Pass and rental revenue by month in one list (UNION ALL of two aggregates)
SELECT 'passes' AS source, strftime('%Y-%m', first_day) AS month, sum(price_paid) AS revenue FROM pass_purchase GROUP BY month
UNION ALL
SELECT 'rentals', strftime('%Y-%m', rented_on), sum(amount) FROM equipment_rental GROUP BY strftime('%Y-%m', rented_on)
ORDER BY 1, 2
-- expected:
SELECT 'passes' AS source, strftime('%Y-%m', first_day) AS month, sum(price_paid) AS revenue FROM pass_purchase GROUP BY month
HAVING count(DISTINCT guest_id) >= 5
UNION ALL
SELECT 'rentals', strftime('%Y-%m', rented_on), sum(amount) FROM equipment_rental GROUP BY strftime('%Y-%m', rented_on)
HAVING count(DISTINCT guest_id) >= 5
ORDER BY 1, 2

-- id: sk24
-- expect: subject
-- question: Rides per pass by product length (a ratio over two steps)
SELECT pr.days, count(s.scan_id) * 1.0 / count(DISTINCT p.purchase_id) AS rides_per_pass
FROM pass_purchase p JOIN pass_product pr ON pr.product_id = p.product_id JOIN lift_scan s ON s.purchase_id = p.purchase_id
GROUP BY pr.days ORDER BY pr.days
-- expected:
SELECT pr.days, count(s.scan_id) * 1.0 / count(DISTINCT p.purchase_id) AS rides_per_pass
FROM pass_purchase p JOIN pass_product pr ON pr.product_id = p.product_id JOIN lift_scan s ON s.purchase_id = p.purchase_id
GROUP BY pr.days HAVING count(DISTINCT p.guest_id) >= 5 ORDER BY pr.days

-- id: sk25
-- expect: subject
-- question: Average daily rides on powder days and on other days (daily counts in a CTE, joined to the snow report)
WITH daily AS (SELECT scanned_on, count(*) AS rides FROM lift_scan GROUP BY scanned_on)
SELECT CASE WHEN d.new_snow_cm >= 20 THEN 'powder' ELSE 'other' END AS day_type, count(*) AS days, avg(x.rides) AS avg_rides
FROM daily x JOIN snow_day d ON d.day = x.scanned_on GROUP BY day_type ORDER BY day_type
-- expected:
WITH daily AS (
    SELECT s.scanned_on, count(*) AS rides FROM lift_scan s JOIN pass_purchase p ON p.purchase_id = s.purchase_id
    GROUP BY s.scanned_on HAVING count(DISTINCT p.guest_id) >= 5
)
SELECT CASE WHEN d.new_snow_cm >= 20 THEN 'powder' ELSE 'other' END AS day_type, count(*) AS days, avg(x.rides) AS avg_rides
FROM daily x JOIN snow_day d ON d.day = x.scanned_on GROUP BY day_type ORDER BY day_type

-- id: sk26
-- expect: subject
-- question: Rides and skiers in February 2025 (one total, a date filter)
SELECT count(*) AS rides, count(DISTINCT purchase_id) AS passes_used FROM lift_scan
WHERE scanned_on >= '2025-02-01' AND scanned_on < '2025-03-01'
-- expected:
SELECT count(*) AS rides, count(DISTINCT s.purchase_id) AS passes_used
FROM lift_scan s JOIN pass_purchase p ON p.purchase_id = s.purchase_id
WHERE s.scanned_on >= '2025-02-01' AND s.scanned_on < '2025-03-01' HAVING count(DISTINCT p.guest_id) >= 5
