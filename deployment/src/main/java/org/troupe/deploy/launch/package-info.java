/**
 * How process chains start: hosts (this one, SSH), the shell scripts of JVM and batch steps, and class path staging.
 * Used by {@link org.troupe.deploy.Deployment}; not an application API.
 */
package org.troupe.deploy.launch;
