-- The analyst blind set, wine club (issue 45): legitimate statements an analyst would run through execute, each with
-- the SQL that gives the right answer run directly on the database.
-- expect: plain   = no person behind the rows read: the statement's own answer, row for row.
-- expect: subject = the rows are about members (directly, or one or two foreign-key steps away): the statement's
--                   answer with the groups about fewer than five distinct members left out, written out by hand as
--                   HAVING count(DISTINCT member_id) >= 5 on the grouping that is about members (and anything
--                   computed after it, a window or an outer query, computed over what is left).
-- Blocks start with "-- id:"; the statement runs to "-- expected:"; "-- expected: same" means the statement itself.

-- id: wc01
-- expect: plain
-- question: Wines per color, with the number of varietals and the average list price
SELECT color, count(*) AS wines, count(DISTINCT varietal) AS varietals, avg(list_price) AS avg_price
FROM wine GROUP BY color ORDER BY color
-- expected: same

-- id: wc02
-- expect: plain
-- question: Average margin per bottle by country of origin
SELECT r.country, avg(w.list_price - w.cost) AS avg_margin
FROM wine w JOIN region r ON r.region_id = w.region_id GROUP BY r.country ORDER BY r.country
-- expected: same

-- id: wc03
-- expect: plain
-- question: Bottles in stock by warehouse and color
SELECT s.warehouse, w.color, sum(s.bottles) AS bottles
FROM stock s JOIN wine w ON w.wine_id = s.wine_id GROUP BY s.warehouse, w.color ORDER BY s.warehouse, w.color
-- expected: same

-- id: wc04
-- expect: plain
-- question: Wines by vintage band
SELECT CASE WHEN vintage < 2012 THEN 'a: before 2012' WHEN vintage < 2018 THEN 'b: 2012-2017' ELSE 'c: 2018 on' END AS band,
       count(*) AS wines, avg(list_price) AS avg_price
FROM wine GROUP BY band ORDER BY band
-- expected: same

-- id: wc05
-- expect: plain
-- question: Top five wines by stock value at cost
SELECT w.name, sum(s.bottles * w.cost) AS stock_value
FROM stock s JOIN wine w ON w.wine_id = s.wine_id GROUP BY w.name ORDER BY stock_value DESC, w.name LIMIT 5
-- expected: same

-- id: wc06
-- expect: subject
-- question: Orders and shipping fees by channel
SELECT channel, count(*) AS orders, sum(shipping_fee) AS shipping FROM club_order GROUP BY channel ORDER BY channel
-- expected:
SELECT channel, count(*) AS orders, sum(shipping_fee) AS shipping FROM club_order GROUP BY channel
HAVING count(DISTINCT member_id) >= 5 ORDER BY channel

-- id: wc07
-- expect: subject
-- question: Bottles and revenue by month
SELECT strftime('%Y-%m', o.ordered_on) AS month, sum(l.bottles) AS bottles, sum(l.bottles * l.unit_price) AS revenue
FROM order_line l JOIN club_order o ON o.order_id = l.order_id GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', o.ordered_on) AS month, sum(l.bottles) AS bottles, sum(l.bottles * l.unit_price) AS revenue
FROM order_line l JOIN club_order o ON o.order_id = l.order_id GROUP BY month
HAVING count(DISTINCT o.member_id) >= 5 ORDER BY month

-- id: wc08
-- expect: subject
-- question: Running total of revenue by month
SELECT strftime('%Y-%m', o.ordered_on) AS month, sum(l.bottles * l.unit_price) AS revenue,
       sum(sum(l.bottles * l.unit_price)) OVER (ORDER BY strftime('%Y-%m', o.ordered_on)) AS running_revenue
FROM order_line l JOIN club_order o ON o.order_id = l.order_id GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', o.ordered_on) AS month, sum(l.bottles * l.unit_price) AS revenue,
       sum(sum(l.bottles * l.unit_price)) OVER (ORDER BY strftime('%Y-%m', o.ordered_on)) AS running_revenue
FROM order_line l JOIN club_order o ON o.order_id = l.order_id GROUP BY month
HAVING count(DISTINCT o.member_id) >= 5 ORDER BY month

-- id: wc09
-- expect: subject
-- question: Top five wines by bottles sold (no person in the query)
SELECT w.name, sum(l.bottles) AS bottles FROM order_line l JOIN wine w ON w.wine_id = l.wine_id
GROUP BY w.name ORDER BY bottles DESC, w.name LIMIT 5
-- expected:
SELECT w.name, sum(l.bottles) AS bottles
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id JOIN club_order o ON o.order_id = l.order_id
GROUP BY w.name HAVING count(DISTINCT o.member_id) >= 5 ORDER BY bottles DESC, w.name LIMIT 5

-- id: wc10
-- expect: subject
-- question: Bottles sold by varietal
SELECT w.varietal, sum(l.bottles) AS bottles FROM order_line l JOIN wine w ON w.wine_id = l.wine_id
GROUP BY w.varietal ORDER BY w.varietal
-- expected:
SELECT w.varietal, sum(l.bottles) AS bottles
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id JOIN club_order o ON o.order_id = l.order_id
GROUP BY w.varietal HAVING count(DISTINCT o.member_id) >= 5 ORDER BY w.varietal

-- id: wc11
-- expect: subject
-- question: Revenue by country of origin (three tables)
SELECT r.country, sum(l.bottles * l.unit_price) AS revenue
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id JOIN region r ON r.region_id = w.region_id
GROUP BY r.country ORDER BY revenue DESC
-- expected:
SELECT r.country, sum(l.bottles * l.unit_price) AS revenue
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id JOIN region r ON r.region_id = w.region_id
     JOIN club_order o ON o.order_id = l.order_id
GROUP BY r.country HAVING count(DISTINCT o.member_id) >= 5 ORDER BY revenue DESC

-- id: wc12
-- expect: subject
-- question: Members by tier
SELECT tier, count(*) AS members FROM member GROUP BY tier ORDER BY tier
-- expected:
SELECT tier, count(*) AS members FROM member GROUP BY tier HAVING count(DISTINCT member_id) >= 5 ORDER BY tier

-- id: wc13
-- expect: subject
-- question: Average order value by tier (per-order totals in a CTE)
WITH order_totals AS (SELECT order_id, sum(bottles * unit_price) AS total FROM order_line GROUP BY order_id)
SELECT m.tier, count(*) AS orders, avg(t.total) AS avg_order_value
FROM order_totals t JOIN club_order o ON o.order_id = t.order_id JOIN member m ON m.member_id = o.member_id
GROUP BY m.tier ORDER BY m.tier
-- expected:
WITH order_totals AS (SELECT order_id, sum(bottles * unit_price) AS total FROM order_line GROUP BY order_id)
SELECT m.tier, count(*) AS orders, avg(t.total) AS avg_order_value
FROM order_totals t JOIN club_order o ON o.order_id = t.order_id JOIN member m ON m.member_id = o.member_id
GROUP BY m.tier HAVING count(DISTINCT m.member_id) >= 5 ORDER BY m.tier

-- id: wc14
-- expect: subject
-- question: Tasting visits, guests and average spend per visit by room
SELECT room, count(*) AS visits, sum(guests) AS guests, avg(spend) AS avg_spend_per_visit
FROM tasting_visit GROUP BY room ORDER BY room
-- expected:
SELECT room, count(*) AS visits, sum(guests) AS guests, avg(spend) AS avg_spend_per_visit
FROM tasting_visit GROUP BY room HAVING count(DISTINCT member_id) >= 5 ORDER BY room

-- id: wc15
-- expect: subject
-- question: Tasting spend by month, months with at least 80 visits
SELECT strftime('%Y-%m', visited_on) AS month, count(*) AS visits, sum(spend) AS spend
FROM tasting_visit GROUP BY month HAVING count(*) >= 80 ORDER BY month
-- expected:
SELECT strftime('%Y-%m', visited_on) AS month, count(*) AS visits, sum(spend) AS spend
FROM tasting_visit GROUP BY month HAVING count(*) >= 80 AND count(DISTINCT member_id) >= 5 ORDER BY month

-- id: wc16
-- expect: subject
-- question: Visiting members and visits per quarter of 2024
SELECT CASE WHEN visited_on < '2024-04-01' THEN 'Q1' WHEN visited_on < '2024-07-01' THEN 'Q2'
            WHEN visited_on < '2024-10-01' THEN 'Q3' ELSE 'Q4' END AS quarter,
       count(DISTINCT member_id) AS members, count(*) AS visits
FROM tasting_visit WHERE visited_on >= '2024-01-01' GROUP BY quarter ORDER BY quarter
-- expected:
SELECT CASE WHEN visited_on < '2024-04-01' THEN 'Q1' WHEN visited_on < '2024-07-01' THEN 'Q2'
            WHEN visited_on < '2024-10-01' THEN 'Q3' ELSE 'Q4' END AS quarter,
       count(DISTINCT member_id) AS members, count(*) AS visits
FROM tasting_visit WHERE visited_on >= '2024-01-01' GROUP BY quarter HAVING count(DISTINCT member_id) >= 5
ORDER BY quarter

-- id: wc17
-- expect: subject
-- question: Share of each tier's members who came to a tasting
SELECT m.tier, count(DISTINCT v.member_id) * 1.0 / count(DISTINCT m.member_id) AS visiting_share
FROM member m LEFT JOIN tasting_visit v ON v.member_id = m.member_id GROUP BY m.tier ORDER BY m.tier
-- expected:
SELECT m.tier, count(DISTINCT v.member_id) * 1.0 / count(DISTINCT m.member_id) AS visiting_share
FROM member m LEFT JOIN tasting_visit v ON v.member_id = m.member_id GROUP BY m.tier
HAVING count(DISTINCT m.member_id) >= 5 ORDER BY m.tier

-- id: wc18
-- expect: subject
-- question: New members per year
SELECT strftime('%Y', joined_on) AS year, count(*) AS members FROM member GROUP BY year ORDER BY year
-- expected:
SELECT strftime('%Y', joined_on) AS year, count(*) AS members FROM member GROUP BY year
HAVING count(DISTINCT member_id) >= 5 ORDER BY year

-- id: wc19
-- expect: subject
-- question: Members by how many orders they placed (buckets over a per-member CTE)
WITH per_member AS (SELECT member_id, count(*) AS orders FROM club_order GROUP BY member_id)
SELECT CASE WHEN orders = 1 THEN 'a: 1' WHEN orders <= 3 THEN 'b: 2-3' ELSE 'c: 4+' END AS bucket, count(*) AS members
FROM per_member GROUP BY bucket ORDER BY bucket
-- expected:
WITH per_member AS (SELECT member_id, count(*) AS orders FROM club_order GROUP BY member_id)
SELECT CASE WHEN orders = 1 THEN 'a: 1' WHEN orders <= 3 THEN 'b: 2-3' ELSE 'c: 4+' END AS bucket, count(*) AS members
FROM per_member GROUP BY bucket HAVING count(DISTINCT member_id) >= 5 ORDER BY bucket

-- id: wc20
-- expect: subject
-- question: Orders, buyers and revenue in 2024
SELECT count(DISTINCT o.order_id) AS orders, count(DISTINCT o.member_id) AS buyers, sum(l.bottles * l.unit_price) AS revenue
FROM club_order o JOIN order_line l ON l.order_id = o.order_id
WHERE o.ordered_on >= '2024-01-01' AND o.ordered_on < '2025-01-01'
-- expected:
SELECT count(DISTINCT o.order_id) AS orders, count(DISTINCT o.member_id) AS buyers, sum(l.bottles * l.unit_price) AS revenue
FROM club_order o JOIN order_line l ON l.order_id = o.order_id
WHERE o.ordered_on >= '2024-01-01' AND o.ordered_on < '2025-01-01'
HAVING count(DISTINCT o.member_id) >= 5

-- id: wc21
-- expect: subject
-- question: Revenue share by color, in percent
SELECT w.color, sum(l.bottles * l.unit_price) AS revenue,
       round(100.0 * sum(l.bottles * l.unit_price) / sum(sum(l.bottles * l.unit_price)) OVER (), 1) AS pct
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id GROUP BY w.color ORDER BY w.color
-- expected:
SELECT w.color, sum(l.bottles * l.unit_price) AS revenue,
       round(100.0 * sum(l.bottles * l.unit_price) / sum(sum(l.bottles * l.unit_price)) OVER (), 1) AS pct
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id JOIN club_order o ON o.order_id = l.order_id
GROUP BY w.color HAVING count(DISTINCT o.member_id) >= 5 ORDER BY w.color

-- id: wc22
-- expect: subject
-- question: Bottles per order by channel
SELECT o.channel, sum(l.bottles) * 1.0 / count(DISTINCT o.order_id) AS bottles_per_order
FROM club_order o JOIN order_line l ON l.order_id = o.order_id GROUP BY o.channel ORDER BY o.channel
-- expected:
SELECT o.channel, sum(l.bottles) * 1.0 / count(DISTINCT o.order_id) AS bottles_per_order
FROM club_order o JOIN order_line l ON l.order_id = o.order_id GROUP BY o.channel
HAVING count(DISTINCT o.member_id) >= 5 ORDER BY o.channel

-- id: wc23
-- expect: subject
-- question: Member cities with over 1,000 in revenue
SELECT m.city, count(DISTINCT o.order_id) AS orders, sum(l.bottles * l.unit_price) AS revenue
FROM order_line l JOIN club_order o ON o.order_id = l.order_id JOIN member m ON m.member_id = o.member_id
GROUP BY m.city HAVING sum(l.bottles * l.unit_price) > 1000 ORDER BY revenue DESC
-- expected:
SELECT m.city, count(DISTINCT o.order_id) AS orders, sum(l.bottles * l.unit_price) AS revenue
FROM order_line l JOIN club_order o ON o.order_id = l.order_id JOIN member m ON m.member_id = o.member_id
GROUP BY m.city HAVING sum(l.bottles * l.unit_price) > 1000 AND count(DISTINCT m.member_id) >= 5 ORDER BY revenue DESC

-- id: wc24
-- expect: subject
-- question: Gross margin by varietal
SELECT w.varietal, sum(l.bottles * (l.unit_price - w.cost)) AS gross_margin
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id GROUP BY w.varietal ORDER BY gross_margin DESC
-- expected:
SELECT w.varietal, sum(l.bottles * (l.unit_price - w.cost)) AS gross_margin
FROM order_line l JOIN wine w ON w.wine_id = l.wine_id JOIN club_order o ON o.order_id = l.order_id
GROUP BY w.varietal HAVING count(DISTINCT o.member_id) >= 5 ORDER BY gross_margin DESC
