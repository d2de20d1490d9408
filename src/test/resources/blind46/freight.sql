-- Blind set for issue 46: a freight forwarder whose customers are companies (B2B). Deterministic generated data.
-- Traps: test clients (is_test two and three many-to-one steps above invoices and credit notes), offboarded clients
-- and delisted carriers (history must stay), shipment statuses (in_transit / delivered sold; cancelled, void, draft
-- not), invoice statuses, invoices in EUR, USD and GBP in one amount column, monthly client balance snapshots, a
-- client table with a company name and a contact person's name, account managers (people), and a driver shift log
-- without a primary key that references the driver.
CREATE TABLE account_manager (manager_id INT PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL,
    email VARCHAR(80) NOT NULL);
CREATE TABLE client (client_id INT PRIMARY KEY, company_name VARCHAR(60) NOT NULL, contact_name VARCHAR(60) NOT NULL,
    contact_email VARCHAR(80) NOT NULL, country VARCHAR(2) NOT NULL, manager_id INT REFERENCES account_manager (manager_id),
    is_test BOOLEAN NOT NULL DEFAULT FALSE, offboarded_at DATE);
CREATE TABLE carrier (carrier_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, mode VARCHAR(5) NOT NULL, delisted_at DATE);
CREATE TABLE driver (driver_id INT PRIMARY KEY, full_name VARCHAR(60) NOT NULL, licence_no VARCHAR(20) NOT NULL, phone VARCHAR(20));
CREATE TABLE shipment (shipment_id INT PRIMARY KEY, client_id INT NOT NULL REFERENCES client (client_id),
    carrier_id INT NOT NULL REFERENCES carrier (carrier_id), driver_id INT REFERENCES driver (driver_id),
    status VARCHAR(12) NOT NULL, origin_country VARCHAR(2) NOT NULL, dest_country VARCHAR(2) NOT NULL,
    weight_kg NUMERIC(10,1) NOT NULL, booked_at TIMESTAMP NOT NULL, delivered_at TIMESTAMP);
CREATE TABLE invoice (invoice_id INT PRIMARY KEY, shipment_id INT NOT NULL REFERENCES shipment (shipment_id),
    amount NUMERIC(12,2) NOT NULL, currency CHAR(3) NOT NULL, status VARCHAR(10) NOT NULL, issued_at DATE NOT NULL);
CREATE TABLE credit_note (credit_note_id INT PRIMARY KEY, invoice_id INT NOT NULL REFERENCES invoice (invoice_id),
    amount NUMERIC(12,2) NOT NULL, issued_at DATE NOT NULL);
CREATE TABLE client_balance_snapshot (snapshot_date DATE NOT NULL, client_id INT NOT NULL REFERENCES client (client_id),
    currency CHAR(3) NOT NULL, balance NUMERIC(12,2) NOT NULL, PRIMARY KEY (snapshot_date, client_id, currency));
CREATE TABLE driver_shift_log (driver_id INT NOT NULL REFERENCES driver (driver_id), shift_date DATE NOT NULL,
    hours NUMERIC(4,1) NOT NULL, depot VARCHAR(20) NOT NULL);

INSERT INTO account_manager
SELECT i, (ARRAY['Sara', 'Jonas', 'Ines', 'Oliver', 'Mia', 'Pavel'])[i], (ARRAY['Lindqvist', 'Berg', 'Ruiz', 'Hart', 'Kowal', 'Sousa'])[i],
       'am' || i || '@forwarder.example'
FROM generate_series(1, 6) i;

-- 45 clients: most in DE, NL and US, two in IE, one in JP (small groups of organisations, not people).
INSERT INTO client
SELECT i, (ARRAY['Nordlicht', 'Kraanwerk', 'Prairie', 'Baltic', 'Summit', 'Harbor', 'Ostwind', 'Delta'])[i % 8 + 1]
           || ' ' || (ARRAY['Logistics GmbH', 'Trading BV', 'Supply Inc', 'Foods GmbH', 'Parts BV', 'Goods Inc'])[i % 6 + 1] || ' ' || i,
       (ARRAY['Karl Brandt', 'Eva de Vries', 'Mark Olson', 'Hanna Vogel', 'Tim Bakker', 'Jane Miller'])[i % 6 + 1],
       'buyer' || i || '@client.example',
       CASE WHEN i IN (41, 42) THEN 'IE' WHEN i = 43 THEN 'JP' ELSE (ARRAY['DE', 'NL', 'US'])[i % 3 + 1] END,
       i % 6 + 1, i IN (44, 45), CASE WHEN i % 10 = 0 THEN DATE '2025-05-31' END
FROM generate_series(1, 45) i;
UPDATE client SET company_name = 'TEST sandbox client ' || client_id WHERE is_test;

INSERT INTO carrier VALUES (1, 'RoadRunner Haulage', 'road', NULL), (2, 'EuroTrans', 'road', DATE '2025-01-31'),
    (3, 'BlueWave Lines', 'sea', NULL), (4, 'Oceanic Cargo', 'sea', NULL), (5, 'SkyFreight', 'air', DATE '2025-09-30'),
    (6, 'JetCargo', 'air', NULL);

INSERT INTO driver
SELECT i, (ARRAY['Lukas', 'Maja', 'Noah', 'Olga', 'Piet'])[i % 5 + 1] || ' ' || (ARRAY['Fischer', 'Jansen', 'Brown'])[i % 3 + 1] || i,
       'DL-' || (100000 + i * 37), '+31600' || lpad(i::text, 5, '0')
FROM generate_series(1, 25) i;

INSERT INTO shipment
SELECT i, (i * 11) % 45 + 1, (i * 5) % 6 + 1, CASE WHEN (i * 5) % 6 + 1 IN (1, 2) THEN (i % 25) + 1 END,
       (ARRAY['delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'in_transit', 'booked', 'cancelled',
              'delivered', 'void', 'delivered', 'draft', 'delivered'])[i % 13 + 1],
       (ARRAY['DE', 'NL', 'US', 'CN'])[i % 4 + 1], (ARRAY['US', 'DE', 'GB', 'NL', 'IE'])[i % 5 + 1],
       100 + (i * 37) % 5000 / 10.0 * 10,
       TIMESTAMP '2024-01-01' + ((i * 131) % (730 * 24) || ' hours')::interval,
       NULL
FROM generate_series(1, 3000) i;
UPDATE shipment SET delivered_at = booked_at + INTERVAL '6 days' WHERE status = 'delivered';

-- An invoice per shipment that was not a draft; the currency follows the client's country.
INSERT INTO invoice
SELECT s.shipment_id, s.shipment_id, round(s.weight_kg * CASE c.mode WHEN 'air' THEN 4.2 WHEN 'sea' THEN 0.6 ELSE 1.1 END, 2),
       CASE WHEN cl.country = 'US' OR cl.country = 'JP' THEN 'USD' WHEN s.shipment_id % 9 = 0 THEN 'GBP' ELSE 'EUR' END,
       CASE WHEN s.status IN ('cancelled', 'void') THEN 'void'
            WHEN s.shipment_id % 17 = 0 THEN 'draft' WHEN s.shipment_id % 3 = 0 THEN 'issued' ELSE 'paid' END,
       (s.booked_at + INTERVAL '1 day')::date
FROM shipment s JOIN carrier c ON c.carrier_id = s.carrier_id JOIN client cl ON cl.client_id = s.client_id
WHERE s.status <> 'draft';

INSERT INTO credit_note
SELECT i.invoice_id, i.invoice_id, round(i.amount * 0.1, 2), i.issued_at + 20
FROM invoice i WHERE i.status = 'paid' AND i.invoice_id % 20 = 1;

-- Month-end open balances per client and currency.
INSERT INTO client_balance_snapshot
SELECT (DATE '2024-02-01' + (m || ' months')::interval - INTERVAL '1 day')::date, c.client_id,
       CASE WHEN c.country IN ('US', 'JP') THEN 'USD' ELSE 'EUR' END, 1000 + ((c.client_id * 37 + m * 101) % 9000)
FROM client c CROSS JOIN generate_series(0, 23) m;

INSERT INTO driver_shift_log
SELECT d, DATE '2025-01-01' + k, 6 + (d + k) % 5, (ARRAY['Rotterdam', 'Duisburg'])[d % 2 + 1]
FROM generate_series(1, 25) d CROSS JOIN generate_series(0, 59) k;
