-- A hotel group's operations database, written as a blind case for table search (money questions):
-- nothing in the repository models hotels. Amounts are in the hotel's currency, numeric(10,2).
CREATE TABLE hotel (
    hotel_id    serial PRIMARY KEY,
    name        text NOT NULL,
    city        text NOT NULL,
    star_rating smallint NOT NULL,
    opened_on   date
);
CREATE TABLE room_type (
    room_type_id serial PRIMARY KEY,
    label        text NOT NULL,
    max_guests   smallint NOT NULL,
    nightly_rate numeric(10,2) NOT NULL
);
CREATE TABLE room (
    room_id      serial PRIMARY KEY,
    hotel_id     int NOT NULL REFERENCES hotel,
    room_type_id int NOT NULL REFERENCES room_type,
    room_number  text NOT NULL,
    floor        smallint NOT NULL
);
CREATE TABLE guest (
    guest_id      serial PRIMARY KEY,
    first_name    text NOT NULL,
    last_name     text NOT NULL,
    email         text,
    loyalty_tier  text NOT NULL CHECK (loyalty_tier IN ('none', 'silver', 'gold')),
    registered_at timestamptz NOT NULL
);
CREATE TABLE employee (
    employee_id serial PRIMARY KEY,
    hotel_id    int NOT NULL REFERENCES hotel,
    full_name   text NOT NULL,
    job_title   text NOT NULL,
    hired_on    date NOT NULL
);
CREATE TABLE reservation (
    reservation_id serial PRIMARY KEY,
    guest_id       int NOT NULL REFERENCES guest,
    room_id        int NOT NULL REFERENCES room,
    booked_by      int REFERENCES employee,
    check_in       date NOT NULL,
    check_out      date NOT NULL,
    status         text NOT NULL CHECK (status IN ('confirmed', 'checked_out', 'cancelled', 'no_show')),
    channel        text NOT NULL
);
CREATE TABLE folio_charge (
    charge_id      serial PRIMARY KEY,
    reservation_id int NOT NULL REFERENCES reservation,
    category       text NOT NULL CHECK (category IN ('room', 'minibar', 'restaurant', 'spa', 'parking')),
    amount         numeric(10,2) NOT NULL,
    posted_at      timestamptz NOT NULL
);
CREATE TABLE settlement (
    settlement_id  serial PRIMARY KEY,
    reservation_id int NOT NULL REFERENCES reservation,
    method         text NOT NULL CHECK (method IN ('card', 'cash', 'invoice')),
    amount         numeric(10,2) NOT NULL,
    settled_at     timestamptz NOT NULL
);
CREATE TABLE housekeeping_task (
    task_id      serial PRIMARY KEY,
    room_id      int NOT NULL REFERENCES room,
    employee_id  int REFERENCES employee,
    task_kind    text NOT NULL,
    done_at      timestamptz
);
CREATE TABLE review (
    review_id      serial PRIMARY KEY,
    reservation_id int NOT NULL REFERENCES reservation,
    score          smallint NOT NULL CHECK (score BETWEEN 1 AND 10),
    comment        text,
    written_at     timestamptz NOT NULL
);

INSERT INTO hotel (name, city, star_rating, opened_on) VALUES
    ('Harbour View', 'Lisbon', 4, '2009-05-01'), ('Old Mill Lodge', 'Porto', 3, '2014-03-15'),
    ('Grand Alameda', 'Madrid', 5, '1998-10-20');
INSERT INTO room_type (label, max_guests, nightly_rate) VALUES
    ('Single', 1, 89.00), ('Double', 2, 129.00), ('Family', 4, 189.00), ('Suite', 2, 349.00);
INSERT INTO room (hotel_id, room_type_id, room_number, floor)
    SELECT 1 + g % 3, 1 + g % 4, (100 + g)::text, 1 + g % 6 FROM generate_series(1, 90) g;
INSERT INTO guest (first_name, last_name, email, loyalty_tier, registered_at)
    SELECT (ARRAY['Ana','Bruno','Carla','Diego','Elena','Filipe'])[1 + g % 6],
           (ARRAY['Silva','Costa','Moreno','Ruiz','Pereira'])[1 + g % 5],
           'guest' || g || '@mail.example', (ARRAY['none','silver','gold'])[1 + g % 3],
           timestamptz '2022-01-01' + g * interval '2 days'
    FROM generate_series(1, 400) g;
INSERT INTO employee (hotel_id, full_name, job_title, hired_on)
    SELECT 1 + g % 3, 'Employee ' || g, (ARRAY['Receptionist','Housekeeper','Manager','Chef'])[1 + g % 4],
           date '2015-01-01' + g * 30 FROM generate_series(1, 45) g;
INSERT INTO reservation (guest_id, room_id, booked_by, check_in, check_out, status, channel)
    SELECT 1 + g % 400, 1 + g % 90, CASE WHEN g % 3 = 0 THEN NULL ELSE 1 + g % 45 END,
           date '2023-01-01' + g % 700, date '2023-01-01' + g % 700 + 1 + g % 5,
           (ARRAY['confirmed','checked_out','checked_out','checked_out','cancelled','no_show'])[1 + g % 6],
           (ARRAY['direct','travel_agent','online'])[1 + g % 3]
    FROM generate_series(1, 2500) g;
INSERT INTO folio_charge (reservation_id, category, amount, posted_at)
    SELECT 1 + g % 2500, (ARRAY['room','room','minibar','restaurant','spa','parking'])[1 + g % 6],
           round((20 + (g * 37) % 300)::numeric, 2), timestamptz '2023-01-02' + (g % 700) * interval '1 day'
    FROM generate_series(1, 9000) g;
INSERT INTO settlement (reservation_id, method, amount, settled_at)
    SELECT 1 + g % 2500, (ARRAY['card','card','cash','invoice'])[1 + g % 4], round((100 + (g * 53) % 900)::numeric, 2),
           timestamptz '2023-01-03' + (g % 700) * interval '1 day'
    FROM generate_series(1, 2600) g;
INSERT INTO housekeeping_task (room_id, employee_id, task_kind, done_at)
    SELECT 1 + g % 90, 1 + g % 45, (ARRAY['clean','linen','inspect'])[1 + g % 3], timestamptz '2023-01-01' + g * interval '3 hours'
    FROM generate_series(1, 3000) g;
INSERT INTO review (reservation_id, score, comment, written_at)
    SELECT 1 + g % 2500, 1 + g % 10, CASE WHEN g % 4 = 0 THEN 'Lovely stay' END, timestamptz '2023-02-01' + g * interval '1 day'
    FROM generate_series(1, 800) g;
