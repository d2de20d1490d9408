package dev.schemabrain.semantic.project;

/**
 * What the text of a semantic object is: a project's YAML file, or the JSON the store keeps. On its own so the
 * reader that binds the text and the codec that checks it both use it without depending on each other.
 */
public enum Format { YAML, JSON }
