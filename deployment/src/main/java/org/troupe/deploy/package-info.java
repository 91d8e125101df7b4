/**
 * The deployment descriptor model and the process launchers (local, ssh, pbs, slurm). Its issue has not landed yet.
 */
package org.troupe.deploy;
