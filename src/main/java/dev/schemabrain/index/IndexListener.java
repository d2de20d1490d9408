package dev.schemabrain.index;

import dev.schemabrain.engine.SamplingProgress;

/** Hears how an index run is going; the CLI turns this into a progress bar or plain lines. */
public interface IndexListener extends SamplingProgress {

    IndexListener SILENT = new IndexListener() {
        @Override
        public void stage(String description) {
        }

        @Override
        public void sampled(int done, int total) {
        }
    };

    /** A new stage starts, e.g. "Reading the catalog of postgresql://db/app". */
    void stage(String description);
}
