/** Running a map: provider planners, their plans, and the one error that means "could not start". */
package io.cloudg.run;
