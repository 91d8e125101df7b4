/**
 * The ready-made deployment descriptors. No classes and nothing exported: the descriptors are XML files at this
 * module's root, read by path; their schema is a resource of {@code org.troupe.deploy}. It requires no Troupe module.
 */
module org.troupe.descriptors {}
