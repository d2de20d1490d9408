-- Blind set for issue 46: a residential property-management company. Deterministic generated data.
-- Traps: a demo building (is_demo on the parent of units, leases, payments, snapshots), retired units and
-- soft-deleted tenants (history and earlier snapshots must stay), lease and payment statuses, rent in EUR, CZK
-- and CHF in one amount column with a currency column, monthly balance snapshots (not additive over time), and
-- a door-access log without a primary key that references the tenant.
CREATE TABLE owner (owner_id INT PRIMARY KEY, company_name VARCHAR(60) NOT NULL, contact_name VARCHAR(60) NOT NULL,
    contact_email VARCHAR(80) NOT NULL);
CREATE TABLE building (building_id INT PRIMARY KEY, owner_id INT NOT NULL REFERENCES owner (owner_id),
    name VARCHAR(40) NOT NULL, city VARCHAR(30) NOT NULL, is_demo BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE unit (unit_id INT PRIMARY KEY, building_id INT NOT NULL REFERENCES building (building_id),
    unit_no VARCHAR(8) NOT NULL, bedrooms INT NOT NULL, area_sqm NUMERIC(6,1) NOT NULL, retired_at DATE);
CREATE TABLE tenant (tenant_id INT PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL,
    email VARCHAR(80) NOT NULL, phone VARCHAR(20), date_of_birth DATE, deleted_at TIMESTAMP);
CREATE TABLE lease (lease_id INT PRIMARY KEY, unit_id INT NOT NULL REFERENCES unit (unit_id),
    tenant_id INT NOT NULL REFERENCES tenant (tenant_id), status VARCHAR(10) NOT NULL,
    monthly_rent NUMERIC(10,2) NOT NULL, currency CHAR(3) NOT NULL, start_date DATE NOT NULL, end_date DATE);
CREATE TABLE rent_payment (payment_id INT PRIMARY KEY, lease_id INT NOT NULL REFERENCES lease (lease_id),
    amount NUMERIC(10,2) NOT NULL, currency CHAR(3) NOT NULL, status VARCHAR(10) NOT NULL, paid_at DATE NOT NULL);
CREATE TABLE balance_snapshot (snapshot_date DATE NOT NULL, lease_id INT NOT NULL REFERENCES lease (lease_id),
    balance NUMERIC(10,2) NOT NULL, currency CHAR(3) NOT NULL, PRIMARY KEY (snapshot_date, lease_id));
CREATE TABLE maintenance_request (request_id INT PRIMARY KEY, unit_id INT NOT NULL REFERENCES unit (unit_id),
    category VARCHAR(20) NOT NULL, status VARCHAR(12) NOT NULL, cost NUMERIC(10,2), currency CHAR(3) NOT NULL,
    opened_at DATE NOT NULL, closed_at DATE);
CREATE TABLE door_access_log (tenant_id INT NOT NULL REFERENCES tenant (tenant_id), unit_id INT NOT NULL REFERENCES unit (unit_id),
    accessed_at TIMESTAMP NOT NULL, method VARCHAR(10) NOT NULL);

INSERT INTO owner VALUES (1, 'Tejo Residencial Lda', 'Marta Alves', 'marta@tejo.example'),
    (2, 'Vltava Bydleni s.r.o.', 'Petr Novak', 'petr@vltava.example'),
    (3, 'Limmat Wohnen AG', 'Lea Meier', 'lea@limmat.example');
INSERT INTO building VALUES (1, 1, 'Alfama House', 'Lisbon', FALSE), (2, 1, 'Ribeira Court', 'Porto', FALSE),
    (3, 2, 'Karlin Lofts', 'Prague', FALSE), (4, 2, 'Vinohrady Yard', 'Prague', FALSE),
    (5, 3, 'Seefeld Terraces', 'Zurich', FALSE), (6, 1, 'DEMO Building', 'Lisbon', TRUE);

INSERT INTO unit
SELECT i, (i - 1) % 6 + 1, 'U' || i, 1 + i % 3, 40 + (i * 7) % 60, CASE WHEN i % 11 = 0 THEN DATE '2025-04-30' END
FROM generate_series(1, 120) i;

INSERT INTO tenant
SELECT i, (ARRAY['Joana', 'Tomas', 'Lucie', 'Jan', 'Sofia', 'Marek', 'Nina', 'Urs'])[i % 8 + 1],
       (ARRAY['Silva', 'Dvorak', 'Keller', 'Costa', 'Horak', 'Frei'])[i % 6 + 1] || i,
       'tenant' || i || '@mail.example', '+351900' || lpad(i::text, 5, '0'), DATE '1960-01-01' + (i * 101) % 15000,
       CASE WHEN i % 9 = 0 THEN TIMESTAMP '2025-07-15' END
FROM generate_series(1, 150) i;

-- One lease per unit from 2024 on (ended leases of retired units), some drafts and voids beside them.
INSERT INTO lease
SELECT u.unit_id, u.unit_id, u.unit_id,
       CASE WHEN u.retired_at IS NOT NULL THEN 'ended' ELSE 'active' END,
       CASE b.city WHEN 'Prague' THEN 12000 + u.bedrooms * 4000 + (u.unit_id % 5) * 250
                   WHEN 'Zurich' THEN 1500 + u.bedrooms * 600 + (u.unit_id % 5) * 40
                   ELSE 700 + u.bedrooms * 250 + (u.unit_id % 5) * 30 END,
       CASE b.city WHEN 'Prague' THEN 'CZK' WHEN 'Zurich' THEN 'CHF' ELSE 'EUR' END,
       DATE '2024-01-01', u.retired_at
FROM unit u JOIN building b ON b.building_id = u.building_id;
INSERT INTO lease
SELECT 200 + u.unit_id, u.unit_id, 121 + u.unit_id % 30, CASE WHEN u.unit_id % 8 = 5 THEN 'draft' ELSE 'void' END,
       l.monthly_rent, l.currency, DATE '2026-01-01', NULL
FROM unit u JOIN lease l ON l.lease_id = u.unit_id WHERE u.unit_id % 4 = 1;

-- Monthly rent payments of the real leases, 2024-01 to 2025-12 (or to the end of the lease); some failed, a few refunded.
INSERT INTO rent_payment
SELECT l.lease_id * 100 + m, l.lease_id, l.monthly_rent, l.currency,
       CASE WHEN (l.lease_id + m) % 13 = 0 THEN 'failed' WHEN (l.lease_id * m) % 47 = 5 THEN 'refunded' ELSE 'completed' END,
       (DATE '2024-01-01' + (m || ' months')::interval)::date + (l.lease_id % 5)
FROM lease l CROSS JOIN generate_series(0, 23) m
WHERE l.lease_id < 200 AND (l.end_date IS NULL OR DATE '2024-01-01' + (m || ' months')::interval < l.end_date);

-- Month-end balances (what the tenant owes) for each real lease while it runs.
INSERT INTO balance_snapshot
SELECT (DATE '2024-02-01' + (m || ' months')::interval - INTERVAL '1 day')::date, l.lease_id,
       CASE WHEN (l.lease_id + m) % 13 = 0 THEN l.monthly_rent ELSE ((l.lease_id * m) % 4) * 10 END, l.currency
FROM lease l CROSS JOIN generate_series(0, 23) m
WHERE l.lease_id < 200 AND (l.end_date IS NULL OR DATE '2024-01-01' + (m || ' months')::interval < l.end_date);

INSERT INTO maintenance_request
SELECT i, (i * 7) % 120 + 1, (ARRAY['plumbing', 'electrical', 'heating', 'appliance', 'locks'])[i % 5 + 1],
       (ARRAY['closed', 'closed', 'closed', 'open', 'cancelled', 'closed', 'in_progress'])[i % 7 + 1],
       CASE WHEN i % 7 IN (3, 4) THEN NULL ELSE 50 + (i * 13) % 400 END,
       CASE (((i * 7) % 120) % 6) + 1 WHEN 3 THEN 'CZK' WHEN 4 THEN 'CZK' WHEN 5 THEN 'CHF' ELSE 'EUR' END,
       DATE '2024-01-05' + (i * 3) % 700, CASE WHEN i % 7 IN (0, 1, 2, 5) THEN DATE '2024-01-09' + (i * 3) % 700 END
FROM generate_series(1, 500) i;

INSERT INTO door_access_log
SELECT l.tenant_id, l.unit_id, TIMESTAMP '2025-09-01' + ((l.lease_id * 7 + k * 53) % 2000 || ' minutes')::interval,
       CASE WHEN k % 3 = 0 THEN 'pin' ELSE 'card' END
FROM lease l CROSS JOIN generate_series(1, 12) k WHERE l.status = 'active';
