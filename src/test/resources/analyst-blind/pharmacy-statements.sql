-- The analyst blind set, pharmacy (issue 45): legitimate statements an analyst would run through execute, each with
-- the SQL that gives the right answer run directly on the database.
-- expect: plain   = no person behind the rows read: the statement's own answer, row for row.
-- expect: subject = the rows are about patients (directly, or one or two foreign-key steps away): the statement's
--                   answer with the groups about fewer than five distinct patients left out, written out by hand as
--                   HAVING count(DISTINCT patient_id) >= 5 on the grouping that is about patients (and anything
--                   computed after it, a window or an outer query, computed over what is left).
-- Blocks start with "-- id:"; the statement runs to "-- expected:"; "-- expected: same" means the statement itself.

-- id: ph01
-- expect: plain
-- question: How many drugs per category, and their average unit price?
SELECT category, count(*) AS drugs, avg(unit_price) AS avg_price FROM drug GROUP BY category ORDER BY category
-- expected: same

-- id: ph02
-- expect: plain
-- question: Share of generics in the catalogue by supplier country
SELECT s.country, count(*) AS drugs, 1.0 * sum(d.is_generic) / count(*) AS generic_share
FROM drug d JOIN supplier s ON s.supplier_id = d.supplier_id GROUP BY s.country ORDER BY s.country
-- expected: same

-- id: ph03
-- expect: plain
-- question: Catalogue by price band
SELECT CASE WHEN unit_price < 10 THEN 'a: under 10' WHEN unit_price < 25 THEN 'b: 10-25' ELSE 'c: 25 and over' END AS band,
       count(*) AS drugs
FROM drug GROUP BY band ORDER BY band
-- expected: same

-- id: ph04
-- expect: plain
-- question: Branches per city with the first opening date
SELECT city, count(*) AS branches, min(opened_on) AS first_opened FROM branch GROUP BY city ORDER BY city
-- expected: same

-- id: ph05
-- expect: subject
-- question: Dispensings, units and revenue by branch
SELECT b.name AS branch, count(*) AS dispensings, sum(d.quantity) AS units, sum(d.amount) AS revenue
FROM dispensing d JOIN branch b ON b.branch_id = d.branch_id
GROUP BY b.name ORDER BY revenue DESC
-- expected:
SELECT b.name AS branch, count(*) AS dispensings, sum(d.quantity) AS units, sum(d.amount) AS revenue
FROM dispensing d JOIN branch b ON b.branch_id = d.branch_id JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY b.name HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY revenue DESC

-- id: ph06
-- expect: subject
-- question: Dispensed revenue by month
SELECT strftime('%Y-%m', dispensed_on) AS month, sum(amount) AS revenue FROM dispensing GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', d.dispensed_on) AS month, sum(d.amount) AS revenue
FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY month HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY month

-- id: ph07
-- expect: subject
-- question: Running total of dispensed revenue by month
SELECT strftime('%Y-%m', dispensed_on) AS month, sum(amount) AS revenue,
       sum(sum(amount)) OVER (ORDER BY strftime('%Y-%m', dispensed_on)) AS running_revenue
FROM dispensing GROUP BY month ORDER BY month
-- expected:
SELECT strftime('%Y-%m', d.dispensed_on) AS month, sum(d.amount) AS revenue,
       sum(sum(d.amount)) OVER (ORDER BY strftime('%Y-%m', d.dispensed_on)) AS running_revenue
FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY month HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY month

-- id: ph08
-- expect: subject
-- question: Top five drugs by dispensed revenue
SELECT dr.name, sum(d.quantity) AS units, sum(d.amount) AS revenue
FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id
GROUP BY dr.name ORDER BY revenue DESC, dr.name LIMIT 5
-- expected:
SELECT dr.name, sum(d.quantity) AS units, sum(d.amount) AS revenue
FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY dr.name HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY revenue DESC, dr.name LIMIT 5

-- id: ph09
-- expect: subject
-- question: Units dispensed by drug category
SELECT dr.category, sum(d.quantity) AS units FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id
GROUP BY dr.category ORDER BY dr.category
-- expected:
SELECT dr.category, sum(d.quantity) AS units
FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY dr.category HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY dr.category

-- id: ph10
-- expect: subject
-- question: Prescriptions and average refills by prescriber specialty
SELECT prescriber_specialty, count(*) AS prescriptions, avg(refills_allowed) AS avg_refills
FROM prescription GROUP BY prescriber_specialty ORDER BY prescriptions DESC, prescriber_specialty
-- expected:
SELECT prescriber_specialty, count(*) AS prescriptions, avg(refills_allowed) AS avg_refills
FROM prescription GROUP BY prescriber_specialty HAVING count(DISTINCT patient_id) >= 5
ORDER BY prescriptions DESC, prescriber_specialty

-- id: ph11
-- expect: subject
-- question: Distinct patients served per branch city
SELECT b.city, count(DISTINCT p.patient_id) AS patients
FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id JOIN branch b ON b.branch_id = d.branch_id
GROUP BY b.city ORDER BY b.city
-- expected:
SELECT b.city, count(DISTINCT p.patient_id) AS patients
FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id JOIN branch b ON b.branch_id = d.branch_id
GROUP BY b.city HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY b.city

-- id: ph12
-- expect: subject
-- question: Patients by insurance plan
SELECT insurance_plan, count(*) AS patients FROM patient GROUP BY insurance_plan ORDER BY insurance_plan
-- expected:
SELECT insurance_plan, count(*) AS patients FROM patient GROUP BY insurance_plan
HAVING count(DISTINCT patient_id) >= 5 ORDER BY insurance_plan

-- id: ph13
-- expect: subject
-- question: Dispensings by pack size band
SELECT CASE WHEN quantity <= 30 THEN 'a: up to 30' WHEN quantity <= 60 THEN 'b: 31-60' ELSE 'c: over 60' END AS pack,
       count(*) AS dispensings, sum(amount) AS revenue
FROM dispensing GROUP BY pack ORDER BY pack
-- expected:
SELECT CASE WHEN d.quantity <= 30 THEN 'a: up to 30' WHEN d.quantity <= 60 THEN 'b: 31-60' ELSE 'c: over 60' END AS pack,
       count(*) AS dispensings, sum(d.amount) AS revenue
FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY pack HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY pack

-- id: ph14
-- expect: subject
-- question: Average and best monthly revenue (CTE over a monthly aggregate)
WITH monthly AS (
    SELECT strftime('%Y-%m', dispensed_on) AS month, sum(amount) AS revenue FROM dispensing GROUP BY month
)
SELECT count(*) AS months, avg(revenue) AS avg_monthly_revenue, max(revenue) AS best_month FROM monthly
-- expected:
WITH monthly AS (
    SELECT strftime('%Y-%m', d.dispensed_on) AS month, sum(d.amount) AS revenue
    FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id
    GROUP BY month HAVING count(DISTINCT p.patient_id) >= 5
)
SELECT count(*) AS months, avg(revenue) AS avg_monthly_revenue, max(revenue) AS best_month FROM monthly

-- id: ph15
-- expect: subject
-- question: Copay as a share of dispensed revenue by insurance plan
SELECT pa.insurance_plan, sum(d.copay) / sum(d.amount) AS copay_share
FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id JOIN patient pa ON pa.patient_id = p.patient_id
GROUP BY pa.insurance_plan ORDER BY pa.insurance_plan
-- expected:
SELECT pa.insurance_plan, sum(d.copay) / sum(d.amount) AS copay_share
FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id JOIN patient pa ON pa.patient_id = p.patient_id
GROUP BY pa.insurance_plan HAVING count(DISTINCT pa.patient_id) >= 5 ORDER BY pa.insurance_plan

-- id: ph16
-- expect: subject
-- question: Fills per prescription by prescriber specialty
SELECT p.prescriber_specialty, count(d.dispensing_id) * 1.0 / count(DISTINCT p.prescription_id) AS fills_per_prescription
FROM prescription p JOIN dispensing d ON d.prescription_id = p.prescription_id
GROUP BY p.prescriber_specialty ORDER BY p.prescriber_specialty
-- expected:
SELECT p.prescriber_specialty, count(d.dispensing_id) * 1.0 / count(DISTINCT p.prescription_id) AS fills_per_prescription
FROM prescription p JOIN dispensing d ON d.prescription_id = p.prescription_id
GROUP BY p.prescriber_specialty HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY p.prescriber_specialty

-- id: ph17
-- expect: subject
-- question: Counter sales by branch and month, months over 300 only
SELECT b.name, strftime('%Y-%m', c.sold_on) AS month, sum(c.amount) AS revenue
FROM counter_sale c JOIN branch b ON b.branch_id = c.branch_id
GROUP BY b.name, month HAVING sum(c.amount) > 300 ORDER BY b.name, month
-- expected:
SELECT b.name, strftime('%Y-%m', c.sold_on) AS month, sum(c.amount) AS revenue
FROM counter_sale c JOIN branch b ON b.branch_id = c.branch_id
GROUP BY b.name, month HAVING sum(c.amount) > 300 AND count(DISTINCT c.patient_id) >= 5 ORDER BY b.name, month

-- id: ph18
-- expect: subject
-- question: Counter sales and average sale by category
SELECT dr.category, count(*) AS sales, avg(c.amount) AS avg_sale
FROM counter_sale c JOIN drug dr ON dr.drug_id = c.drug_id GROUP BY dr.category ORDER BY dr.category
-- expected:
SELECT dr.category, count(*) AS sales, avg(c.amount) AS avg_sale
FROM counter_sale c JOIN drug dr ON dr.drug_id = c.drug_id GROUP BY dr.category
HAVING count(DISTINCT c.patient_id) >= 5 ORDER BY dr.category

-- id: ph19
-- expect: subject
-- question: Counter buyers and revenue in the second quarter
SELECT count(DISTINCT patient_id) AS buyers, sum(amount) AS revenue
FROM counter_sale WHERE sold_on >= '2024-04-01' AND sold_on < '2024-07-01'
-- expected:
SELECT count(DISTINCT patient_id) AS buyers, sum(amount) AS revenue
FROM counter_sale WHERE sold_on >= '2024-04-01' AND sold_on < '2024-07-01'
HAVING count(DISTINCT patient_id) >= 5

-- id: ph20
-- expect: subject
-- question: Generic against brand: units and revenue dispensed in 2024
SELECT CASE WHEN dr.is_generic = 1 THEN 'generic' ELSE 'brand' END AS kind, sum(d.quantity) AS units, sum(d.amount) AS revenue
FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id
WHERE d.dispensed_on >= '2024-01-01' AND d.dispensed_on < '2025-01-01'
GROUP BY kind ORDER BY kind
-- expected:
SELECT CASE WHEN dr.is_generic = 1 THEN 'generic' ELSE 'brand' END AS kind, sum(d.quantity) AS units, sum(d.amount) AS revenue
FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id JOIN prescription p ON p.prescription_id = d.prescription_id
WHERE d.dispensed_on >= '2024-01-01' AND d.dispensed_on < '2025-01-01'
GROUP BY kind HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY kind

-- id: ph21
-- expect: subject
-- question: How many patients have one, two, three ... prescriptions (a distribution over a per-patient CTE)
WITH per_patient AS (SELECT patient_id, count(*) AS prescriptions FROM prescription GROUP BY patient_id)
SELECT prescriptions, count(*) AS patients FROM per_patient GROUP BY prescriptions ORDER BY prescriptions
-- expected:
WITH per_patient AS (SELECT patient_id, count(*) AS prescriptions FROM prescription GROUP BY patient_id)
SELECT prescriptions, count(*) AS patients FROM per_patient GROUP BY prescriptions
HAVING count(DISTINCT patient_id) >= 5 ORDER BY prescriptions

-- id: ph22
-- expect: subject
-- question: Each branch's share of dispensed revenue
SELECT b.name, sum(d.amount) AS revenue, sum(d.amount) / sum(sum(d.amount)) OVER () AS share
FROM dispensing d JOIN branch b ON b.branch_id = d.branch_id GROUP BY b.name ORDER BY b.name
-- expected:
SELECT b.name, sum(d.amount) AS revenue, sum(d.amount) / sum(sum(d.amount)) OVER () AS share
FROM dispensing d JOIN branch b ON b.branch_id = d.branch_id JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY b.name HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY b.name

-- id: ph23
-- expect: subject
-- question: Dispensed revenue by supplier (three tables, no person in the query)
SELECT s.name AS supplier, s.country, sum(d.amount) AS revenue
FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id JOIN supplier s ON s.supplier_id = dr.supplier_id
GROUP BY s.name, s.country ORDER BY revenue DESC
-- expected:
SELECT s.name AS supplier, s.country, sum(d.amount) AS revenue
FROM dispensing d JOIN drug dr ON dr.drug_id = d.drug_id JOIN supplier s ON s.supplier_id = dr.supplier_id
     JOIN prescription p ON p.prescription_id = d.prescription_id
GROUP BY s.name, s.country HAVING count(DISTINCT p.patient_id) >= 5 ORDER BY revenue DESC

-- id: ph24
-- expect: subject
-- question: Fills per month and the change on the month before (CTE, then LAG)
WITH m AS (SELECT strftime('%Y-%m', dispensed_on) AS month, count(*) AS fills FROM dispensing GROUP BY month)
SELECT month, fills, fills - lag(fills) OVER (ORDER BY month) AS change FROM m ORDER BY month
-- expected:
WITH m AS (
    SELECT strftime('%Y-%m', d.dispensed_on) AS month, count(*) AS fills
    FROM dispensing d JOIN prescription p ON p.prescription_id = d.prescription_id
    GROUP BY month HAVING count(DISTINCT p.patient_id) >= 5
)
SELECT month, fills, fills - lag(fills) OVER (ORDER BY month) AS change FROM m ORDER BY month

-- id: ph25
-- expect: subject
-- question: Patients per home city
SELECT city, count(*) AS patients FROM patient GROUP BY city ORDER BY patients DESC, city
-- expected:
SELECT city, count(*) AS patients FROM patient GROUP BY city HAVING count(DISTINCT patient_id) >= 5
ORDER BY patients DESC, city
