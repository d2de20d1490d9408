package dev.schemabrain.gate;

import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.semantic.compile.SubjectGraph;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.Set;

/** What the SQL gate reads of a served catalog: one caller's view of it, and the whole it was cut from. */
public interface SqlView {

    Catalog catalog();

    SemanticModel semantic();

    SubjectGraph subjectGraph();

    PiiTags pii();

    BlockList blockList();

    /** The catalog before any caller's cut. */
    SqlView whole();

    /** The tables whose rows belong to an entity {@code access}'s row filters limit (its own, or many-to-one from it). */
    Set<QualifiedName> rowFiltered(Access access);
}
