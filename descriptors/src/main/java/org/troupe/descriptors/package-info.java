/**
 * No classes: the ready-made deployment descriptors are the XML files at this module's root (local, ssh, pbs, slurm,
 * multi-cluster), read by path. Their schema, {@code troupe-deployment-1.xsd}, is a resource of the deployment
 * module, which validates every descriptor it loads against it.
 */
package org.troupe.descriptors;
