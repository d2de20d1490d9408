-- A university's admissions database, written as a blind case for table search: nothing else in the repository
-- models admissions. Its questions (admissions.json) were written before any score was seen.
CREATE TABLE campus (
    campus_id serial PRIMARY KEY,
    name      text NOT NULL,
    city      text NOT NULL
);
CREATE TABLE college (
    college_id serial PRIMARY KEY,
    campus_id  int NOT NULL REFERENCES campus,
    name       text NOT NULL,
    dean_name  text NOT NULL
);
CREATE TABLE department (
    department_id serial PRIMARY KEY,
    college_id    int NOT NULL REFERENCES college,
    name          text NOT NULL
);
CREATE TABLE program (
    program_id       serial PRIMARY KEY,
    department_id    int NOT NULL REFERENCES department,
    name             text NOT NULL,
    degree_level     text NOT NULL CHECK (degree_level IN ('bachelor', 'master', 'doctorate')),
    seats            int NOT NULL,
    tuition_per_year numeric(10,2) NOT NULL
);
CREATE TABLE intake_term (
    term_id              serial PRIMARY KEY,
    label                text NOT NULL,
    starts_on            date NOT NULL,
    application_deadline date NOT NULL
);
CREATE TABLE country (
    country_code char(2) PRIMARY KEY,
    name         text NOT NULL,
    region       text NOT NULL
);
CREATE TABLE applicant (
    applicant_id     serial PRIMARY KEY,
    first_name       text NOT NULL,
    last_name        text NOT NULL,
    email            text NOT NULL,
    birth_date       date NOT NULL,
    country_code     char(2) NOT NULL REFERENCES country,
    first_generation boolean NOT NULL
);
CREATE TABLE secondary_school (
    secondary_school_id serial PRIMARY KEY,
    name                text NOT NULL,
    city                text NOT NULL,
    country_code        char(2) NOT NULL REFERENCES country
);
CREATE TABLE academic_record (
    record_id           serial PRIMARY KEY,
    applicant_id        int NOT NULL REFERENCES applicant,
    secondary_school_id int NOT NULL REFERENCES secondary_school,
    graduation_year     smallint NOT NULL,
    gpa                 numeric(3,2) NOT NULL,
    class_rank          int
);
CREATE TABLE test_score (
    test_score_id serial PRIMARY KEY,
    applicant_id  int NOT NULL REFERENCES applicant,
    test_name     text NOT NULL CHECK (test_name IN ('SAT', 'ACT', 'GRE', 'TOEFL', 'IELTS')),
    score         numeric(6,1) NOT NULL,
    taken_on      date NOT NULL
);
CREATE TABLE application (
    application_id serial PRIMARY KEY,
    applicant_id   int NOT NULL REFERENCES applicant,
    program_id     int NOT NULL REFERENCES program,
    term_id        int NOT NULL REFERENCES intake_term,
    submitted_at   timestamptz,
    status         text NOT NULL CHECK (status IN ('draft', 'submitted', 'under review', 'decided')),
    fee_paid       boolean NOT NULL
);
CREATE TABLE application_document (
    document_id    serial PRIMARY KEY,
    application_id int NOT NULL REFERENCES application,
    doc_type       text NOT NULL CHECK (doc_type IN ('transcript', 'personal statement', 'cv', 'passport copy')),
    received_on    date NOT NULL
);
CREATE TABLE recommendation_letter (
    letter_id      serial PRIMARY KEY,
    application_id int NOT NULL REFERENCES application,
    referee_name   text NOT NULL,
    referee_email  text NOT NULL,
    received_on    date
);
CREATE TABLE reviewer (
    reviewer_id   serial PRIMARY KEY,
    department_id int NOT NULL REFERENCES department,
    full_name     text NOT NULL,
    title         text NOT NULL
);
CREATE TABLE review (
    review_id      serial PRIMARY KEY,
    application_id int NOT NULL REFERENCES application,
    reviewer_id    int NOT NULL REFERENCES reviewer,
    rating         smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comments       text,
    reviewed_at    timestamptz NOT NULL
);
CREATE TABLE interview (
    interview_id   serial PRIMARY KEY,
    application_id int NOT NULL REFERENCES application,
    interviewer_id int NOT NULL REFERENCES reviewer,
    scheduled_at   timestamptz NOT NULL,
    format         text NOT NULL CHECK (format IN ('in person', 'video call')),
    outcome        text
);
CREATE TABLE decision (
    decision_id    serial PRIMARY KEY,
    application_id int NOT NULL REFERENCES application,
    outcome        text NOT NULL CHECK (outcome IN ('admitted', 'rejected', 'waitlisted', 'deferred')),
    decided_on     date NOT NULL,
    decided_by     int REFERENCES reviewer
);
CREATE TABLE scholarship (
    scholarship_id serial PRIMARY KEY,
    name           text NOT NULL,
    amount         numeric(10,2) NOT NULL,
    funded_by      text NOT NULL
);
CREATE TABLE scholarship_award (
    award_id       serial PRIMARY KEY,
    scholarship_id int NOT NULL REFERENCES scholarship,
    application_id int NOT NULL REFERENCES application,
    awarded_amount numeric(10,2) NOT NULL,
    awarded_on     date NOT NULL
);
CREATE TABLE enrollment_deposit (
    deposit_id     serial PRIMARY KEY,
    application_id int NOT NULL REFERENCES application,
    amount         numeric(10,2) NOT NULL,
    paid_on        date NOT NULL,
    refunded       boolean NOT NULL DEFAULT false
);
CREATE TABLE fee_waiver (
    waiver_id      serial PRIMARY KEY,
    application_id int NOT NULL REFERENCES application,
    reason         text NOT NULL,
    approved       boolean NOT NULL
);
CREATE TABLE campus_visit (
    visit_id     serial PRIMARY KEY,
    applicant_id int NOT NULL REFERENCES applicant,
    campus_id    int NOT NULL REFERENCES campus,
    visited_on   date NOT NULL,
    tour_guide   text
);
CREATE TABLE recruitment_event (
    event_id     serial PRIMARY KEY,
    name         text NOT NULL,
    city         text NOT NULL,
    country_code char(2) NOT NULL REFERENCES country,
    held_on      date NOT NULL
);
CREATE TABLE event_attendance (
    event_id     int NOT NULL REFERENCES recruitment_event,
    applicant_id int NOT NULL REFERENCES applicant,
    PRIMARY KEY (event_id, applicant_id)
);

INSERT INTO campus (name, city) VALUES ('Riverside Campus', 'Leeds'), ('Northgate Campus', 'York');
INSERT INTO college (campus_id, name, dean_name) VALUES
    (1, 'College of Engineering', 'Prof. Amara Osei'), (1, 'College of Arts and Humanities', 'Prof. Lena Fischer'),
    (2, 'College of Health Sciences', 'Prof. Rajiv Menon');
INSERT INTO department (college_id, name) VALUES
    (1, 'Computer Science'), (1, 'Civil Engineering'), (2, 'History'), (2, 'Linguistics'), (3, 'Nursing');
INSERT INTO program (department_id, name, degree_level, seats, tuition_per_year) VALUES
    (1, 'BSc Computer Science', 'bachelor', 120, 9250.00), (1, 'MSc Artificial Intelligence', 'master', 40, 14500.00),
    (2, 'MEng Structural Engineering', 'master', 30, 13200.00), (3, 'BA Modern History', 'bachelor', 60, 9250.00),
    (4, 'PhD Linguistics', 'doctorate', 6, 4700.00), (5, 'BSc Adult Nursing', 'bachelor', 90, 9250.00);
INSERT INTO intake_term (label, starts_on, application_deadline) VALUES
    ('Fall 2025', '2025-09-22', '2025-01-31'), ('Spring 2026', '2026-01-26', '2025-10-31'), ('Fall 2026', '2026-09-21', '2026-01-31');
INSERT INTO country (country_code, name, region) VALUES
    ('GB', 'United Kingdom', 'Europe'), ('KE', 'Kenya', 'Africa'), ('IN', 'India', 'Asia'), ('BR', 'Brazil', 'South America'),
    ('DE', 'Germany', 'Europe');
INSERT INTO applicant (first_name, last_name, email, birth_date, country_code, first_generation) VALUES
    ('Wanjiru', 'Kamau', 'wanjiru.k@example.com', '2006-03-14', 'KE', true),
    ('Arjun', 'Patel', 'arjun.patel@example.com', '2001-11-02', 'IN', false),
    ('Sophie', 'Turner', 'sophie.t@example.co.uk', '2006-07-30', 'GB', true),
    ('Lucas', 'Almeida', 'lucas.almeida@example.com.br', '1999-05-21', 'BR', false),
    ('Jonas', 'Becker', 'jonas.becker@example.de', '2005-12-09', 'DE', false);
INSERT INTO secondary_school (name, city, country_code) VALUES
    ('Alliance High School', 'Kikuyu', 'KE'), ('Harrogate Grammar School', 'Harrogate', 'GB'),
    ('Gymnasium am Rotenbühl', 'Saarbrücken', 'DE'), ('Delhi Public School', 'New Delhi', 'IN');
INSERT INTO academic_record (applicant_id, secondary_school_id, graduation_year, gpa, class_rank) VALUES
    (1, 1, 2024, 3.85, 4), (2, 4, 2019, 3.60, 22), (3, 2, 2024, 3.92, 2), (5, 3, 2024, 3.40, NULL);
INSERT INTO test_score (applicant_id, test_name, score, taken_on) VALUES
    (1, 'SAT', 1450, '2024-05-04'), (1, 'TOEFL', 108, '2024-06-15'), (2, 'GRE', 324, '2024-09-10'),
    (2, 'IELTS', 7.5, '2024-08-01'), (4, 'GRE', 316, '2024-10-12'), (5, 'IELTS', 7.0, '2024-11-20');
INSERT INTO application (applicant_id, program_id, term_id, submitted_at, status, fee_paid) VALUES
    (1, 1, 1, '2025-01-12 10:00+00', 'decided', true), (2, 2, 1, '2025-01-20 14:30+00', 'decided', true),
    (3, 6, 1, '2025-01-28 09:15+00', 'decided', true), (4, 3, 2, '2025-10-02 18:45+00', 'under review', true),
    (5, 4, 3, NULL, 'draft', false), (2, 5, 3, '2025-12-01 08:00+00', 'submitted', false);
INSERT INTO application_document (application_id, doc_type, received_on) VALUES
    (1, 'transcript', '2025-01-14'), (1, 'personal statement', '2025-01-12'), (2, 'cv', '2025-01-20'),
    (2, 'passport copy', '2025-01-22'), (4, 'transcript', '2025-10-05');
INSERT INTO recommendation_letter (application_id, referee_name, referee_email, received_on) VALUES
    (1, 'Mr. Peter Mwangi', 'p.mwangi@alliance.example.ke', '2025-01-18'), (2, 'Dr. Kavita Rao', 'k.rao@iitd.example.in', '2025-01-25'),
    (4, 'Prof. Carlos Souza', 'csouza@usp.example.br', NULL);
INSERT INTO reviewer (department_id, full_name, title) VALUES
    (1, 'Dr. Hannah Webb', 'Admissions Tutor'), (1, 'Dr. Tomasz Nowak', 'Senior Lecturer'), (5, 'Dr. Grace Adeyemi', 'Admissions Tutor'),
    (2, 'Prof. Ian McLeod', 'Professor');
INSERT INTO review (application_id, reviewer_id, rating, comments, reviewed_at) VALUES
    (1, 1, 5, 'Outstanding maths and a strong statement', '2025-02-03 11:00+00'),
    (2, 2, 4, 'Solid research background', '2025-02-10 15:20+00'),
    (3, 3, 4, 'Good clinical placement experience', '2025-02-12 09:40+00'),
    (4, 4, 3, 'Needs more structural design work', '2025-10-20 13:00+00');
INSERT INTO interview (application_id, interviewer_id, scheduled_at, format, outcome) VALUES
    (2, 2, '2025-02-18 10:00+00', 'video call', 'recommend'), (3, 3, '2025-02-20 14:00+00', 'in person', 'recommend'),
    (4, 4, '2025-11-04 16:00+00', 'video call', NULL);
INSERT INTO decision (application_id, outcome, decided_on, decided_by) VALUES
    (1, 'admitted', '2025-02-15', 1), (2, 'waitlisted', '2025-03-01', 2), (3, 'admitted', '2025-03-03', 3);
INSERT INTO scholarship (name, amount, funded_by) VALUES
    ('Global Excellence Award', 5000.00, 'University endowment'), ('Nightingale Bursary', 2500.00, 'Royal Health Trust'),
    ('First in Family Grant', 3000.00, 'Alumni fund');
INSERT INTO scholarship_award (scholarship_id, application_id, awarded_amount, awarded_on) VALUES
    (1, 1, 5000.00, '2025-03-10'), (3, 1, 1500.00, '2025-03-12'), (2, 3, 2500.00, '2025-03-20');
INSERT INTO enrollment_deposit (application_id, amount, paid_on, refunded) VALUES
    (1, 500.00, '2025-04-01', false), (3, 500.00, '2025-04-15', false);
INSERT INTO fee_waiver (application_id, reason, approved) VALUES
    (1, 'Low household income', true), (6, 'Financial hardship', false);
INSERT INTO campus_visit (applicant_id, campus_id, visited_on, tour_guide) VALUES
    (3, 2, '2024-10-19', 'Priya Shah'), (5, 1, '2025-06-07', 'Owen Jones'), (1, 1, '2024-12-02', NULL);
INSERT INTO recruitment_event (name, city, country_code, held_on) VALUES
    ('Study in the UK Fair', 'Nairobi', 'KE', '2024-09-28'), ('Postgraduate Open Evening', 'Mumbai', 'IN', '2024-10-15'),
    ('Engineering Taster Day', 'Leeds', 'GB', '2025-03-08');
INSERT INTO event_attendance (event_id, applicant_id) VALUES (1, 1), (2, 2), (3, 3), (3, 5);
