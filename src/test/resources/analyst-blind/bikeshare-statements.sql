-- The second analyst blind set, bikeshare (issue 45): legitimate statements an analyst would run through execute,
-- each with the SQL that gives the right answer run directly on the database. Written before the set was scored.
-- expect: plain   = no person behind the rows read: the statement's own answer, row for row.
-- expect: subject = the rows are about riders (directly, or one or two foreign-key steps away): the statement's
--                   answer with the groups about fewer than five distinct riders left out, written out by hand as
--                   HAVING count(DISTINCT rider_id) >= 5 on the grouping that is about riders (and anything
--                   computed after it, a window or an outer query, computed over what is left).
-- Blocks start with "-- id:"; the statement runs to "-- expected:"; "-- expected: same" means the statement itself.

-- id: bs01
-- expect: plain
-- question: Stations and docks per district
SELECT district, count(*) AS stations, sum(docks) AS docks FROM station GROUP BY district ORDER BY docks DESC, district
-- expected: same

-- id: bs02
-- expect: plain
-- question: Fleet by kind and model
SELECT kind, model, count(*) AS bikes, min(commissioned_on) AS oldest FROM bike GROUP BY kind, model ORDER BY kind, model
-- expected: same

-- id: bs03
-- expect: plain
-- question: Maintenance jobs and cost by bike kind and type of work
SELECT b.kind, m.work, count(*) AS jobs, sum(m.cost) AS cost
FROM maintenance m JOIN bike b ON b.bike_id = m.bike_id GROUP BY b.kind, m.work ORDER BY b.kind, m.work
-- expected: same

-- id: bs04
-- expect: plain
-- question: Maintenance cost by month with a running total
SELECT strftime('%Y-%m', serviced_on) AS month, sum(cost) AS cost,
       sum(sum(cost)) OVER (ORDER BY strftime('%Y-%m', serviced_on)) AS running_cost
FROM maintenance GROUP BY month ORDER BY month
-- expected: same

-- id: bs05
-- expect: plain
-- question: Bikes per model among bikes that had their brakes done (IN filter)
SELECT model, count(*) AS bikes FROM bike
WHERE bike_id IN (SELECT bike_id FROM maintenance WHERE work = 'brakes') GROUP BY model ORDER BY model
-- expected: same

-- id: bs06
-- expect: plain
-- question: How many stations and how many bikes (UNION ALL of two counts)
SELECT 'stations' AS what, count(*) AS n FROM station
UNION ALL
SELECT 'bikes', count(*) FROM bike
-- expected: same

-- id: bs07
-- expect: subject
-- question: Trips, minutes and fares by month
SELECT strftime('%Y-%m', started_on) AS month, count(*) AS trips, sum(minutes) AS minutes, sum(fare) AS fares
FROM trip GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', started_on) AS month, count(*) AS trips, sum(minutes) AS minutes, sum(fare) AS fares
FROM trip GROUP BY month HAVING count(DISTINCT rider_id) >= 5 ORDER BY month

-- id: bs08
-- expect: subject
-- question: Trips and average duration by start station
SELECT s.name AS station, count(*) AS trips, avg(t.minutes) AS avg_minutes
FROM trip t JOIN station s ON s.station_id = t.start_station_id GROUP BY s.name ORDER BY s.name
-- expected:
SELECT s.name AS station, count(*) AS trips, avg(t.minutes) AS avg_minutes
FROM trip t JOIN station s ON s.station_id = t.start_station_id GROUP BY s.name
HAVING count(DISTINCT t.rider_id) >= 5 ORDER BY s.name

-- id: bs09
-- expect: subject
-- question: Running total of fares by month
SELECT strftime('%Y-%m', started_on) AS month, sum(fare) AS fares,
       sum(sum(fare)) OVER (ORDER BY strftime('%Y-%m', started_on)) AS running_fares
FROM trip GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', started_on) AS month, sum(fare) AS fares,
       sum(sum(fare)) OVER (ORDER BY strftime('%Y-%m', started_on)) AS running_fares
FROM trip GROUP BY month HAVING count(DISTINCT rider_id) >= 5 ORDER BY month

-- id: bs10
-- expect: subject
-- question: Top five routes (start and end station) by number of trips
SELECT a.name AS from_station, b.name AS to_station, count(*) AS trips
FROM trip t JOIN station a ON a.station_id = t.start_station_id JOIN station b ON b.station_id = t.end_station_id
GROUP BY a.name, b.name ORDER BY trips DESC, a.name, b.name LIMIT 5
-- expected:
SELECT a.name AS from_station, b.name AS to_station, count(*) AS trips
FROM trip t JOIN station a ON a.station_id = t.start_station_id JOIN station b ON b.station_id = t.end_station_id
GROUP BY a.name, b.name HAVING count(DISTINCT t.rider_id) >= 5 ORDER BY trips DESC, a.name, b.name LIMIT 5

-- id: bs11
-- expect: subject
-- question: Each bike kind's share of trips
SELECT b.kind, count(*) AS trips, 1.0 * count(*) / sum(count(*)) OVER () AS share
FROM trip t JOIN bike b ON b.bike_id = t.bike_id GROUP BY b.kind ORDER BY b.kind
-- expected:
SELECT b.kind, count(*) AS trips, 1.0 * count(*) / sum(count(*)) OVER () AS share
FROM trip t JOIN bike b ON b.bike_id = t.bike_id GROUP BY b.kind HAVING count(DISTINCT t.rider_id) >= 5 ORDER BY b.kind

-- id: bs12
-- expect: subject
-- question: Riders by plan
SELECT plan, count(*) AS riders FROM rider GROUP BY plan ORDER BY plan
-- expected:
SELECT plan, count(*) AS riders FROM rider GROUP BY plan HAVING count(DISTINCT rider_id) >= 5 ORDER BY plan

-- id: bs13
-- expect: subject
-- question: Riders by home district and their average birth year
SELECT district, count(*) AS riders, avg(birth_year) AS avg_birth_year FROM rider GROUP BY district ORDER BY riders DESC, district
-- expected:
SELECT district, count(*) AS riders, avg(birth_year) AS avg_birth_year FROM rider GROUP BY district
HAVING count(DISTINCT rider_id) >= 5 ORDER BY riders DESC, district

-- id: bs14
-- expect: subject
-- question: Average trip length and fare per trip by plan
SELECT r.plan, count(*) AS trips, avg(t.minutes) AS avg_minutes, sum(t.fare) / count(*) AS fare_per_trip
FROM trip t JOIN rider r ON r.rider_id = t.rider_id GROUP BY r.plan ORDER BY r.plan
-- expected:
SELECT r.plan, count(*) AS trips, avg(t.minutes) AS avg_minutes, sum(t.fare) / count(*) AS fare_per_trip
FROM trip t JOIN rider r ON r.rider_id = t.rider_id GROUP BY r.plan HAVING count(DISTINCT r.rider_id) >= 5 ORDER BY r.plan

-- id: bs15
-- expect: subject
-- question: Trips by duration band
SELECT CASE WHEN minutes < 10 THEN 'a: under 10' WHEN minutes < 30 THEN 'b: 10-29' ELSE 'c: 30 and over' END AS band,
       count(*) AS trips, avg(distance_km) AS avg_km
FROM trip GROUP BY band ORDER BY band
-- expected:
SELECT CASE WHEN minutes < 10 THEN 'a: under 10' WHEN minutes < 30 THEN 'b: 10-29' ELSE 'c: 30 and over' END AS band,
       count(*) AS trips, avg(distance_km) AS avg_km
FROM trip GROUP BY band HAVING count(DISTINCT rider_id) >= 5 ORDER BY band

-- id: bs16
-- expect: subject
-- question: Damage reports and repair cost by kind of damage (two steps from a rider)
SELECT kind, count(*) AS reports, sum(repair_cost) AS repair_cost FROM damage_report GROUP BY kind ORDER BY kind
-- expected:
SELECT d.kind, count(*) AS reports, sum(d.repair_cost) AS repair_cost
FROM damage_report d JOIN trip t ON t.trip_id = d.trip_id GROUP BY d.kind HAVING count(DISTINCT t.rider_id) >= 5 ORDER BY d.kind

-- id: bs17
-- expect: subject
-- question: App sessions and screens viewed by platform
SELECT platform, count(*) AS sessions, avg(screens) AS avg_screens FROM app_session GROUP BY platform ORDER BY platform
-- expected:
SELECT platform, count(*) AS sessions, avg(screens) AS avg_screens FROM app_session GROUP BY platform
HAVING count(DISTINCT rider_id) >= 5 ORDER BY platform

-- id: bs18
-- expect: subject
-- question: App sessions by month, months with more than 320 sessions
SELECT strftime('%Y-%m', opened_on) AS month, count(*) AS sessions FROM app_session
GROUP BY month HAVING count(*) > 320 ORDER BY month
-- expected:
SELECT strftime('%Y-%m', opened_on) AS month, count(*) AS sessions FROM app_session
GROUP BY month HAVING count(*) > 320 AND count(DISTINCT rider_id) >= 5 ORDER BY month

-- id: bs19
-- expect: subject
-- question: Active riders per month in the second half of 2024
SELECT strftime('%Y-%m', started_on) AS month, count(DISTINCT rider_id) AS active_riders FROM trip
WHERE started_on >= '2024-07-01' AND started_on < '2025-01-01' GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', started_on) AS month, count(DISTINCT rider_id) AS active_riders FROM trip
WHERE started_on >= '2024-07-01' AND started_on < '2025-01-01' GROUP BY month HAVING count(DISTINCT rider_id) >= 5 ORDER BY month

-- id: bs20
-- expect: subject
-- question: Riders by how many trips they took (buckets over a per-rider CTE)
WITH per_rider AS (SELECT rider_id, count(*) AS trips FROM trip GROUP BY rider_id)
SELECT CASE WHEN trips <= 2 THEN 'a: 1-2' WHEN trips <= 5 THEN 'b: 3-5' WHEN trips <= 8 THEN 'c: 6-8' ELSE 'd: 9+' END AS bucket,
       count(*) AS riders
FROM per_rider GROUP BY bucket ORDER BY bucket
-- expected:
WITH per_rider AS (SELECT rider_id, count(*) AS trips FROM trip GROUP BY rider_id)
SELECT CASE WHEN trips <= 2 THEN 'a: 1-2' WHEN trips <= 5 THEN 'b: 3-5' WHEN trips <= 8 THEN 'c: 6-8' ELSE 'd: 9+' END AS bucket,
       count(*) AS riders
FROM per_rider GROUP BY bucket HAVING count(DISTINCT rider_id) >= 5 ORDER BY bucket

-- id: bs21
-- expect: subject
-- question: Trips and damage repair cost by bike kind (LEFT JOIN, no report counts as zero)
SELECT b.kind, count(*) AS trips, coalesce(sum(d.repair_cost), 0) AS repair_cost
FROM trip t JOIN bike b ON b.bike_id = t.bike_id LEFT JOIN damage_report d ON d.trip_id = t.trip_id
GROUP BY b.kind ORDER BY b.kind
-- expected:
SELECT b.kind, count(*) AS trips, coalesce(sum(d.repair_cost), 0) AS repair_cost
FROM trip t JOIN bike b ON b.bike_id = t.bike_id LEFT JOIN damage_report d ON d.trip_id = t.trip_id
GROUP BY b.kind HAVING count(DISTINCT t.rider_id) >= 5 ORDER BY b.kind

-- id: bs22
-- expect: subject
-- question: Sessions by platform and trips by bike kind in one list (UNION ALL of two aggregates)
SELECT 'platform' AS dimension, platform AS value, count(*) AS n FROM app_session GROUP BY platform
UNION ALL
SELECT 'bike kind', b.kind, count(*) FROM trip t JOIN bike b ON b.bike_id = t.bike_id GROUP BY b.kind
ORDER BY 1, 2
-- expected:
SELECT 'platform' AS dimension, platform AS value, count(*) AS n FROM app_session GROUP BY platform
HAVING count(DISTINCT rider_id) >= 5
UNION ALL
SELECT 'bike kind', b.kind, count(*) FROM trip t JOIN bike b ON b.bike_id = t.bike_id GROUP BY b.kind
HAVING count(DISTINCT t.rider_id) >= 5
ORDER BY 1, 2

-- id: bs23
-- expect: subject
-- question: Trips per month on bikes that ever needed a battery job (IN filter on a non-personal column)
SELECT strftime('%Y-%m', started_on) AS month, count(*) AS trips FROM trip
WHERE bike_id IN (SELECT bike_id FROM maintenance WHERE work = 'battery') GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', started_on) AS month, count(*) AS trips FROM trip
WHERE bike_id IN (SELECT bike_id FROM maintenance WHERE work = 'battery') GROUP BY month
HAVING count(DISTINCT rider_id) >= 5 ORDER BY month

-- id: bs24
-- expect: subject
-- question: Trips by end-station district, only stations with at least 14 docks (EXISTS)
SELECT s.district, count(*) AS trips, sum(t.distance_km) AS km
FROM trip t JOIN station s ON s.station_id = t.end_station_id
WHERE EXISTS (SELECT 1 FROM station x WHERE x.station_id = t.end_station_id AND x.docks >= 14)
GROUP BY s.district ORDER BY s.district
-- expected:
SELECT s.district, count(*) AS trips, sum(t.distance_km) AS km
FROM trip t JOIN station s ON s.station_id = t.end_station_id
WHERE EXISTS (SELECT 1 FROM station x WHERE x.station_id = t.end_station_id AND x.docks >= 14)
GROUP BY s.district HAVING count(DISTINCT t.rider_id) >= 5 ORDER BY s.district

-- id: bs25
-- expect: subject
-- question: Trips per hour of day and each hour's share of the day, by weekday or weekend
SELECT CASE WHEN strftime('%w', started_on) IN ('0', '6') THEN 'weekend' ELSE 'weekday' END AS day_type, start_hour,
       count(*) AS trips,
       1.0 * count(*) / sum(count(*)) OVER (PARTITION BY CASE WHEN strftime('%w', started_on) IN ('0', '6') THEN 'weekend' ELSE 'weekday' END) AS share
FROM trip GROUP BY day_type, start_hour ORDER BY day_type, start_hour
-- expected:
SELECT CASE WHEN strftime('%w', started_on) IN ('0', '6') THEN 'weekend' ELSE 'weekday' END AS day_type, start_hour,
       count(*) AS trips,
       1.0 * count(*) / sum(count(*)) OVER (PARTITION BY CASE WHEN strftime('%w', started_on) IN ('0', '6') THEN 'weekend' ELSE 'weekday' END) AS share
FROM trip GROUP BY day_type, start_hour HAVING count(DISTINCT rider_id) >= 5 ORDER BY day_type, start_hour

-- id: bs26
-- expect: subject
-- question: Monthly fares, with the change on the month before (CTE, then LAG)
WITH m AS (SELECT strftime('%Y-%m', started_on) AS month, sum(fare) AS fares FROM trip GROUP BY month)
SELECT month, fares, fares - lag(fares) OVER (ORDER BY month) AS change FROM m ORDER BY month
-- expected:
WITH m AS (
    SELECT strftime('%Y-%m', started_on) AS month, sum(fare) AS fares FROM trip GROUP BY month
    HAVING count(DISTINCT rider_id) >= 5
)
SELECT month, fares, fares - lag(fares) OVER (ORDER BY month) AS change FROM m ORDER BY month

-- id: bs27
-- expect: subject
-- question: Damage reports per 100 trips by bike model (three tables, a ratio)
SELECT b.model, count(d.report_id) * 100.0 / count(*) AS reports_per_100_trips
FROM trip t JOIN bike b ON b.bike_id = t.bike_id LEFT JOIN damage_report d ON d.trip_id = t.trip_id
GROUP BY b.model ORDER BY b.model
-- expected:
SELECT b.model, count(d.report_id) * 100.0 / count(*) AS reports_per_100_trips
FROM trip t JOIN bike b ON b.bike_id = t.bike_id LEFT JOIN damage_report d ON d.trip_id = t.trip_id
GROUP BY b.model HAVING count(DISTINCT t.rider_id) >= 5 ORDER BY b.model
