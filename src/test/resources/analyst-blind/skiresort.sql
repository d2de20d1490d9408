-- A ski resort (invented for the second analyst blind set, issue 45). Data: AnalystBlindData2.skiresort.
-- People: guest (names, email, phone, birth date). One step from a person: pass_purchase, equipment_rental (no
-- primary key: a guest's rental history). Two steps: lift_scan (via pass_purchase).
-- No person: lift, pass_product, snow_day (the daily snow report).
CREATE TABLE lift (
    lift_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    sector TEXT NOT NULL,
    vertical_m INTEGER NOT NULL,
    seats INTEGER NOT NULL
);
CREATE TABLE pass_product (
    product_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    days INTEGER NOT NULL,
    age_band TEXT NOT NULL,
    list_price NUMERIC NOT NULL
);
CREATE TABLE snow_day (
    day TEXT PRIMARY KEY,
    new_snow_cm INTEGER NOT NULL,
    base_cm INTEGER NOT NULL,
    min_temp_c INTEGER NOT NULL
);
CREATE TABLE guest (
    guest_id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    birth_date TEXT,
    country TEXT NOT NULL,
    loyalty_level TEXT NOT NULL
);
CREATE TABLE pass_purchase (
    purchase_id INTEGER PRIMARY KEY,
    guest_id INTEGER NOT NULL REFERENCES guest (guest_id),
    product_id INTEGER NOT NULL REFERENCES pass_product (product_id),
    bought_on TEXT NOT NULL,
    first_day TEXT NOT NULL,
    channel TEXT NOT NULL,
    price_paid NUMERIC NOT NULL
);
CREATE TABLE lift_scan (
    scan_id INTEGER PRIMARY KEY,
    purchase_id INTEGER NOT NULL REFERENCES pass_purchase (purchase_id),
    lift_id INTEGER NOT NULL REFERENCES lift (lift_id),
    scanned_on TEXT NOT NULL,
    scan_hour INTEGER NOT NULL
);
CREATE TABLE equipment_rental (
    guest_id INTEGER NOT NULL REFERENCES guest (guest_id),
    item TEXT NOT NULL,
    rented_on TEXT NOT NULL,
    days INTEGER NOT NULL,
    amount NUMERIC NOT NULL
);
