/** Every cycle among slices, each as `a > b > … > a`, from dependency-cruiser's modules collapsed per folder. */
export declare function sliceCycles(modules: ReadonlyArray<{ readonly source: string; readonly dependencies: ReadonlyArray<{ readonly resolved: string }> }>): string[];
